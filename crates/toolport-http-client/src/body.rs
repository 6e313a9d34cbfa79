//! Reading response bodies within a byte limit, without copying when the body is one chunk.

use bytes::{Bytes, BytesMut};
use hyper::body::{Body, Incoming};

use crate::HttpError;

/// Reads a whole response body, failing with [`HttpError::TooLarge`] as soon as it passes
/// `limit` bytes (at once when `Content-Length` says so). A body that arrives in one chunk is
/// returned without a copy.
pub async fn read_limited(mut body: Incoming, limit: usize) -> Result<Bytes, HttpError> {
    if body
        .size_hint()
        .exact()
        .is_some_and(|length| length > limit as u64)
    {
        return Err(HttpError::TooLarge { limit });
    }
    let mut first: Option<Bytes> = None;
    let mut rest: Option<BytesMut> = None;
    let mut total = 0usize;
    while let Some(frame) = http_body_util::BodyExt::frame(&mut body).await {
        let Ok(data) = frame.map_err(HttpError::Body)?.into_data() else {
            continue; // trailers
        };
        total = total.saturating_add(data.len());
        if total > limit {
            return Err(HttpError::TooLarge { limit });
        }
        match (&mut first, &mut rest) {
            (None, _) => first = Some(data),
            (Some(head), None) => {
                let mut buffer = BytesMut::with_capacity(head.len() + data.len());
                buffer.extend_from_slice(head);
                buffer.extend_from_slice(&data);
                rest = Some(buffer);
            }
            (Some(_), Some(buffer)) => buffer.extend_from_slice(&data),
        }
    }
    Ok(match (first, rest) {
        (_, Some(buffer)) => buffer.freeze(),
        (Some(head), None) => head,
        (None, None) => Bytes::new(),
    })
}

/// Reads at most `limit` bytes of a body for an error message, lossily as text.
pub async fn read_prefix(mut body: Incoming, limit: usize) -> String {
    let mut text = Vec::new();
    while text.len() < limit {
        let Some(Ok(frame)) = http_body_util::BodyExt::frame(&mut body).await else {
            break;
        };
        if let Ok(data) = frame.into_data() {
            let take = data.len().min(limit - text.len());
            text.extend_from_slice(&data[..take]);
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}
