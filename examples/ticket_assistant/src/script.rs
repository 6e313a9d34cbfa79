//! The recorded conversation the example replays: a customer charged twice in September, with
//! every tool declared or with tool search.

use serde_json::json;

use crate::Step;

/// What the customer's ticket asks the assistant.
pub const QUESTION: &str = "Ticket T-1042 says the customer was charged twice in September. \
     Find out why, and refund the extra charge.";

/// The model's last word on [`QUESTION`], in both conversations.
pub const ANSWER: &str = "Order O-5531 was charged twice in September: INV-2026-0917 and \
     INV-2026-0918, 49.00 EUR each, under two different idempotency keys (ck-7f3a20 and \
     ck-91bd4c), so the payment was retried as a new charge. I cannot issue refunds; a billing \
     agent should refund INV-2026-0918.";

/// What the model asks the search tool for in [`double_charge_with_search`], in its own words:
/// the ticket's file and its text, then the customer's invoices, then a refund.
pub const SEARCHES: [&str; 3] = [
    "find the document that mentions charged twice and show its contents",
    "a customer's invoices in one month, and one invoice's details",
    "refund a duplicate charge",
];

/// The model's steps for [`QUESTION`] with every tool declared: find and read the ticket, list
/// the customer's September invoices, read both, try to refund the second (a tool it was never
/// offered), and answer.
pub fn double_charge() -> Vec<Step> {
    let [find_ticket, read_ticket] = ticket_steps();
    let [list, first, second] = invoice_steps();
    vec![
        find_ticket,
        read_ticket,
        list,
        first,
        second,
        refund_step(),
        Step::answer(ANSWER),
    ]
}

/// The same work with tool search on: before each need the model searches for its tools in the
/// words of [`SEARCHES`] (two tools for the ticket, two for the invoices), then calls what it
/// found. Its search for a refund finds nothing, since no allowlist offers one; it tries
/// `issue_refund` anyway, and answers as in [`double_charge`].
pub fn double_charge_with_search() -> Vec<Step> {
    let [find_ticket, read_ticket] = ticket_steps();
    let [list, first, second] = invoice_steps();
    vec![
        search(SEARCHES[0], 2),
        find_ticket,
        read_ticket,
        search(SEARCHES[1], 2),
        list,
        first,
        second,
        search(SEARCHES[2], 1),
        refund_step(),
        Step::answer(ANSWER),
    ]
}

/// A call of the search tool for `limit` tools that meet `need`.
fn search(need: &str, limit: u64) -> Step {
    Step::call("search_tools", json!({"query": need, "limit": limit}))
}

/// Find the ticket by its words, and read it.
fn ticket_steps() -> [Step; 2] {
    [
        Step::call(
            "search_files",
            json!({"path": ".", "pattern": "charged twice"}),
        ),
        Step::call("read_text_file", json!({"path": "open/T-1042.md"})),
    ]
}

/// List the customer's September invoices, and read both.
fn invoice_steps() -> [Step; 3] {
    [
        Step::call(
            "list_invoices",
            json!({"customer_id": "C-1001", "month": "2026-09"}),
        ),
        Step::call("get_invoice", json!({"invoice_id": "INV-2026-0917"})),
        Step::call("get_invoice", json!({"invoice_id": "INV-2026-0918"})),
    ]
}

/// Refund the second invoice.
fn refund_step() -> Step {
    Step::call(
        "issue_refund",
        json!({"invoice_id": "INV-2026-0918", "reason": "duplicate charge for O-5531"}),
    )
}
