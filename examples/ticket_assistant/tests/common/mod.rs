//! What the ticket assistant's tests share: a desk over the real servers, a ticket's caller
//! context, and the tool results of a conversation.

use serde_json::{Value, json};
use ticket_assistant::{Event, SupportDesk, files_server, tickets_dir};
use toolport::ReadonlyContext;
use toolport::provider_messages::ApiShape;
use toolport_testkit::bounded;

/// The desk for `shape`, with the filesystem server as this package's binary and the billing
/// allowlist `billing_tools`.
pub async fn open_desk(shape: ApiShape, billing_tools: &[&str]) -> SupportDesk {
    let files = files_server(env!("CARGO_BIN_EXE_ticket_assistant"), tickets_dir());
    bounded(
        "open the desk",
        SupportDesk::open_with_billing_tools(shape, files, billing_tools),
    )
    .await
    .unwrap()
}

/// The caller context of the conversation `invocation_id`.
pub fn ticket(invocation_id: &str) -> ReadonlyContext {
    ReadonlyContext::from_json(json!({"invocation_id": invocation_id}))
}

/// The values of the tool results in `events` that failed (`is_error`) or did not.
pub fn results(events: &[Event], is_error: bool) -> Vec<&Value> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Result {
                value,
                is_error: failed,
                ..
            } if *failed == is_error => Some(value),
            _ => None,
        })
        .collect()
}
