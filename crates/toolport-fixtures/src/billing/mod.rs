//! [`BillingServer`]: a fixture billing service with invoices to read and one tool with a side
//! effect, `issue_refund`, which honours an idempotency key.

mod ledger;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{Json, ServerHandler, tool, tool_handler, tool_router};

use self::ledger::{
    GetInvoiceParams, Invoice, InvoiceList, IssueRefundParams, ListInvoicesParams, Refund,
    seed_invoices,
};

/// A billing MCP server named `toolport-billing`, with three tools that return structured
/// content and declare output schemas:
///
/// - `list_invoices(customer_id, month?)` returns `{invoices, count}` (read-only);
/// - `get_invoice(invoice_id)` returns one invoice (read-only); an unknown ID is a tool error
///   that says to call `list_invoices`;
/// - `issue_refund(invoice_id, reason, idempotency_key?)` refunds an invoice in full
///   (destructive). A refund with a key seen before returns that refund and refunds nothing.
///
/// Every instance starts with customer C-1001's three invoices: INV-2026-0811 for August, and
/// INV-2026-0917 and INV-2026-0918 for September, both for order O-5531 but charged under
/// different idempotency keys, which is how a customer comes to be charged twice. Each is
/// 4,900 EUR cents. Clones share their refunds, so a test serving one clone per HTTP session
/// can count them with [`refunds`](Self::refunds).
///
/// # Examples
///
/// ```
/// use toolport_fixtures::{BillingServer, HttpFixtureServer};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let billing = BillingServer::new();
/// let server = HttpFixtureServer::start({
///     let billing = billing.clone();
///     move || billing.clone()
/// })
/// .await
/// .unwrap();
/// assert_eq!(billing.refunds(), 0);
/// server.stop().await;
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct BillingServer {
    invoices: Arc<[Invoice]>,
    refunds: Arc<Mutex<RefundBook>>,
    tool_router: ToolRouter<Self>,
}

/// The refunds made, and the key each was made under.
#[derive(Debug, Default)]
struct RefundBook {
    issued: Vec<Refund>,
    by_key: HashMap<String, Refund>,
}

impl BillingServer {
    /// The server's name in its `initialize` response.
    pub const NAME: &'static str = "toolport-billing";

    /// A server holding the seed invoices and no refunds.
    pub fn new() -> Self {
        Self {
            invoices: seed_invoices().into(),
            refunds: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    /// How many refunds were made: the side effects, not the calls.
    pub fn refunds(&self) -> usize {
        self.book().issued.len()
    }

    fn book(&self) -> std::sync::MutexGuard<'_, RefundBook> {
        // A panic while holding the lock cannot leave the book half-written, so go on.
        self.refunds.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn invoice(&self, id: &str) -> Result<&Invoice, String> {
        self.invoices
            .iter()
            .find(|invoice| invoice.id == id)
            .ok_or_else(|| {
                format!("No invoice {id}. Call list_invoices to see the customer's invoices.")
            })
    }
}

impl Default for BillingServer {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router(router = tool_router)]
impl BillingServer {
    #[tool(
        description = "Lists a customer's invoices, oldest first, optionally for one month.",
        annotations(read_only_hint = true)
    )]
    async fn list_invoices(
        &self,
        Parameters(params): Parameters<ListInvoicesParams>,
    ) -> Json<InvoiceList> {
        let invoices: Vec<Invoice> = self
            .invoices
            .iter()
            .filter(|invoice| invoice.customer_id == params.customer_id)
            .filter(|invoice| {
                params
                    .month
                    .as_ref()
                    .is_none_or(|month| &invoice.month == month)
            })
            .cloned()
            .collect();
        Json(InvoiceList {
            count: invoices.len(),
            invoices,
        })
    }

    #[tool(
        description = "Gets one invoice by its ID.",
        annotations(read_only_hint = true)
    )]
    async fn get_invoice(
        &self,
        Parameters(params): Parameters<GetInvoiceParams>,
    ) -> Result<Json<Invoice>, String> {
        self.invoice(&params.invoice_id).cloned().map(Json)
    }

    #[tool(
        description = "Refunds an invoice in full. Refunds once per idempotency key.",
        annotations(read_only_hint = false, destructive_hint = true)
    )]
    async fn issue_refund(
        &self,
        Parameters(params): Parameters<IssueRefundParams>,
    ) -> Result<Json<Refund>, String> {
        let amount_cents = self.invoice(&params.invoice_id)?.amount_cents;
        let mut book = self.book();
        if let Some(refund) = params
            .idempotency_key
            .as_ref()
            .and_then(|key| book.by_key.get(key))
        {
            return Ok(Json(refund.clone()));
        }
        let refund = Refund {
            refund_id: format!("RF-{}", book.issued.len() + 1),
            invoice_id: params.invoice_id,
            amount_cents,
            reason: params.reason,
        };
        book.issued.push(refund.clone());
        if let Some(key) = params.idempotency_key {
            book.by_key.insert(key, refund.clone());
        }
        Ok(Json(refund))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for BillingServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(Self::NAME, env!("CARGO_PKG_VERSION")))
    }
}
