//! The billing server's records: invoices, refunds, and the arguments and answers of its tools.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One invoice, as `get_invoice` and `list_invoices` return it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Invoice {
    /// The invoice's ID, `INV-…`.
    pub(crate) id: String,
    /// The customer billed.
    pub(crate) customer_id: String,
    /// The order the invoice is for.
    pub(crate) order_id: String,
    /// The month billed, `YYYY-MM`.
    pub(crate) month: String,
    /// What was charged, in cents.
    pub(crate) amount_cents: u64,
    /// The currency, ISO 4217.
    pub(crate) currency: String,
    /// What the charge was for.
    pub(crate) description: String,
    /// The idempotency key the charge was made with; two keys for one order mean two charges.
    pub(crate) charge_idempotency_key: String,
}

/// The invoices every billing server starts with: customer C-1001 was charged twice for
/// order O-5531 in September 2026, under two different idempotency keys.
pub(crate) fn seed_invoices() -> Vec<Invoice> {
    let invoice = |id: &str, order: &str, month: &str, key: &str| Invoice {
        id: id.to_owned(),
        customer_id: "C-1001".to_owned(),
        order_id: order.to_owned(),
        month: month.to_owned(),
        amount_cents: 4_900,
        currency: "EUR".to_owned(),
        description: "Team plan, monthly".to_owned(),
        charge_idempotency_key: key.to_owned(),
    };
    vec![
        invoice("INV-2026-0811", "O-5402", "2026-08", "ck-3c1e9a"),
        invoice("INV-2026-0917", "O-5531", "2026-09", "ck-7f3a20"),
        invoice("INV-2026-0918", "O-5531", "2026-09", "ck-91bd4c"),
    ]
}

/// The arguments of `get_invoice`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct GetInvoiceParams {
    /// The invoice's ID, as `list_invoices` gives it.
    pub(crate) invoice_id: String,
}

/// The arguments of `list_invoices`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct ListInvoicesParams {
    /// The customer, `C-…`.
    pub(crate) customer_id: String,
    /// Only this month, `YYYY-MM`; every month when left out.
    pub(crate) month: Option<String>,
}

/// What `list_invoices` returns.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct InvoiceList {
    /// The invoices, oldest first.
    pub(crate) invoices: Vec<Invoice>,
    /// How many there are.
    pub(crate) count: usize,
}

/// The arguments of `issue_refund`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct IssueRefundParams {
    /// The invoice to refund.
    pub(crate) invoice_id: String,
    /// Why, for the customer's record.
    pub(crate) reason: String,
    /// A key that makes a repeated refund return the first one instead of refunding again.
    pub(crate) idempotency_key: Option<String>,
}

/// What `issue_refund` returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct Refund {
    /// The refund's ID, `RF-<n>`.
    pub(crate) refund_id: String,
    /// The invoice refunded.
    pub(crate) invoice_id: String,
    /// How much was refunded, in cents.
    pub(crate) amount_cents: u64,
    /// Why, as the caller gave it.
    pub(crate) reason: String,
}
