//! What a Toolport call gives back, in rig's terms: the output the model reads, a tool error the
//! model reads, or a transport failure that ends the run.

use rig_core::message::{ImageMediaType, MimeType, ToolResultContent};
use rig_core::tool::{ToolExecutionError, ToolOutput as RigOutput};
use serde_json::{Value, json};
use toolport_tools::{MediaPart, ToolError, ToolOutput};

/// The code a [`ToolExecutionError`] carries when the call failed below the tool (the session
/// or a layer of the call path: a lost connection, a timeout, a server that is gone), so its
/// outcome is unknown. [`StopOnTransportFailure`](crate::StopOnTransportFailure) ends the run on
/// it.
pub const TRANSPORT_FAILURE: &str = "toolport.transport_failure";

/// A tool's output as rig's: the value (text for a JSON string, else JSON), then its media.
/// An output the tool flagged as an error (`isError`) is a failed call whose model output is
/// the same, so the model reads the server's words and the run goes on.
pub(crate) fn from_toolport(
    tool: &str,
    output: ToolOutput,
) -> Result<RigOutput, ToolExecutionError> {
    let mut content = vec![match output.value {
        Value::String(text) => ToolResultContent::text(text),
        value => ToolResultContent::json(value),
    }];
    content.extend(output.parts.into_iter().map(media));
    let rendered = RigOutput::content(content)?;
    if output.is_error {
        Err(
            ToolExecutionError::other(format!("{tool} reported an error"))
                .with_model_output(rendered),
        )
    } else {
        Ok(rendered)
    }
}

/// One media part as tool-result content: an image rig knows as an image, anything else as
/// the JSON the server sent.
fn media(part: MediaPart) -> ToolResultContent {
    match part {
        MediaPart::Image { mime_type, data } => match ImageMediaType::from_mime_type(&mime_type) {
            Some(media_type) => ToolResultContent::image_base64(data, Some(media_type), None),
            None => ToolResultContent::json(
                json!({"type": "image", "mimeType": mime_type, "data": data}),
            ),
        },
        MediaPart::Audio { mime_type, data } => {
            ToolResultContent::json(json!({"type": "audio", "mimeType": mime_type, "data": data}))
        }
        MediaPart::Resource {
            uri,
            mime_type,
            text,
            blob,
        } => ToolResultContent::json(
            json!({"type": "resource", "uri": uri, "mimeType": mime_type, "text": text, "blob": blob}),
        ),
        // `MediaPart` is non-exhaustive: a new kind still reaches the model, as its debug form.
        other => ToolResultContent::text(format!("{other:?}")),
    }
}

/// A failed call as rig's error. Arguments that break the schema, a result that breaks its
/// own, or one that cannot be mapped: the model reads why and may try again. A failure of the
/// session or of a layer: the outcome is unknown, and the error carries [`TRANSPORT_FAILURE`].
pub(crate) fn from_error(error: ToolError) -> ToolExecutionError {
    let message = error.to_string();
    match error {
        ToolError::InvalidArguments { .. } => {
            ToolExecutionError::invalid_args(message).with_source(error)
        }
        ToolError::Session(_) | ToolError::Layer(_) => {
            let failure = if error.is_timeout() {
                ToolExecutionError::timeout(message)
            } else {
                ToolExecutionError::network(message)
            };
            failure.with_code(TRANSPORT_FAILURE).with_source(error)
        }
        _ => ToolExecutionError::other(message).with_source(error),
    }
}
