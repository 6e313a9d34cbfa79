//! The recorded conversation the example replays: a customer charged twice in September.

use serde_json::json;

use crate::Step;

/// What the customer's ticket asks the assistant.
pub const QUESTION: &str = "Ticket T-1042 says the customer was charged twice in September. \
     Find out why, and refund the extra charge.";

/// The model's steps for [`QUESTION`]: find and read the ticket, list the customer's September
/// invoices, read both, try to refund the second (a tool it was never offered), and answer.
pub fn double_charge() -> Vec<Step> {
    vec![
        Step::call(
            "search_files",
            json!({"path": ".", "pattern": "charged twice"}),
        ),
        Step::call("read_text_file", json!({"path": "open/T-1042.md"})),
        Step::call(
            "list_invoices",
            json!({"customer_id": "C-1001", "month": "2026-09"}),
        ),
        Step::call("get_invoice", json!({"invoice_id": "INV-2026-0917"})),
        Step::call("get_invoice", json!({"invoice_id": "INV-2026-0918"})),
        Step::call(
            "issue_refund",
            json!({"invoice_id": "INV-2026-0918", "reason": "duplicate charge for O-5531"}),
        ),
        Step::answer(
            "Order O-5531 was charged twice in September: INV-2026-0917 and INV-2026-0918, \
             49.00 EUR each, under two different idempotency keys (ck-7f3a20 and ck-91bd4c), \
             so the payment was retried as a new charge. I cannot issue refunds; a billing \
             agent should refund INV-2026-0918.",
        ),
    ]
}
