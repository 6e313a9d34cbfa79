//! What the ticket assistant's tests share: a desk over the real servers, a ticket's caller
//! context, the refund step and its approval, the tool results of a conversation, and the
//! checks of a refund made once and of a desk closed cleanly.

use serde_json::{Value, json};
use ticket_assistant::{Event, REFUND_APPROVER, Step, SupportDesk, files_server, tickets_dir};
use toolport::provider_messages::ApiShape;
use toolport::{ReadonlyContext, ServerExit};
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

/// The model's step that refunds the second of the two September invoices.
pub fn refund_second_invoice() -> Step {
    Step::call(
        "issue_refund",
        json!({"invoice_id": "INV-2026-0918", "reason": "duplicate charge"}),
    )
}

/// The caller context of ticket T-1042 with a billing agent's approval of refunds recorded.
pub fn approved_ticket() -> ReadonlyContext {
    ReadonlyContext::from_json(json!({
        "invocation_id": "ticket-T-1042",
        REFUND_APPROVER: "sam@billing",
    }))
}

/// Checks that `refunds`, the results of a refund sent twice for one ticket, are the same
/// refund, and that the desk made one.
pub fn assert_refunded_once(desk: &SupportDesk, refunds: &[&Value], events: &[Event]) {
    assert_eq!(refunds.len(), 2, "{events:?}");
    assert_eq!(refunds[0]["refund_id"], "RF-1");
    assert_eq!(
        refunds[1], refunds[0],
        "the same key returns the same refund"
    );
    assert_eq!(desk.refunds(), 1);
}

/// Closes `desk` and checks that its filesystem server exited by itself.
pub async fn close_cleanly(desk: SupportDesk, shape: ApiShape) {
    let exit = bounded("close", desk.close()).await;
    assert!(
        matches!(exit, ServerExit::Exited(status) if status.success()),
        "{shape}: the filesystem server exits by itself: {exit:?}"
    );
}
