//! [`PaymentsServer`]: a fixture whose one tool has a side effect, `charge`, which honours an
//! idempotency key, and whose first answer can be slow, for tests of retries after a timeout.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

/// The arguments of `charge`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct ChargeParams {
    /// The amount, in cents.
    amount: u64,
    /// A key that makes a repeated charge return the first one's receipt instead of charging
    /// again.
    idempotency_key: Option<String>,
}

/// A payments server with one tool, `charge`, which charges once per idempotency key.
///
/// Each charge with a new key (or without one) counts one side effect, at once, and answers
/// with a receipt `R-<n>`. A charge with a key seen before answers with that key's receipt and
/// charges nothing. With [`slow_first_answer`](Self::slow_first_answer), the first charge's
/// answer comes late (after its side effect), as a server does whose answer is lost or slow.
/// Clones share their charges.
#[derive(Debug, Clone)]
pub struct PaymentsServer {
    charges: Arc<AtomicUsize>,
    receipts: Arc<Mutex<HashMap<String, String>>>,
    first_answer_delay: Duration,
    tool_router: ToolRouter<Self>,
}

impl PaymentsServer {
    /// The server's name in its `initialize` response.
    pub const NAME: &'static str = "toolport-payments";

    /// A server that answers every charge at once.
    pub fn new() -> Self {
        Self {
            charges: Arc::new(AtomicUsize::new(0)),
            receipts: Arc::new(Mutex::new(HashMap::new())),
            first_answer_delay: Duration::ZERO,
            tool_router: Self::tool_router(),
        }
    }

    /// The first charge's answer comes `delay` after its side effect.
    pub fn slow_first_answer(mut self, delay: Duration) -> Self {
        self.first_answer_delay = delay;
        self
    }

    /// How many charges were made: the side effects, not the calls.
    pub fn charges(&self) -> usize {
        self.charges.load(Ordering::SeqCst)
    }
}

impl Default for PaymentsServer {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router(router = tool_router)]
impl PaymentsServer {
    #[tool(description = "Charges the amount once per idempotency key, and returns the receipt.")]
    async fn charge(&self, Parameters(params): Parameters<ChargeParams>) -> String {
        let known = params.idempotency_key.as_ref().and_then(|key| {
            let receipts = self.receipts.lock().unwrap_or_else(|e| e.into_inner());
            receipts.get(key).cloned()
        });
        if let Some(receipt) = known {
            return receipt;
        }
        let number = self.charges.fetch_add(1, Ordering::SeqCst) + 1;
        let receipt = format!("R-{number}: charged {} cents", params.amount);
        if let Some(key) = params.idempotency_key {
            let mut receipts = self.receipts.lock().unwrap_or_else(|e| e.into_inner());
            receipts.insert(key, receipt.clone());
        }
        if number == 1 && !self.first_answer_delay.is_zero() {
            tokio::time::sleep(self.first_answer_delay).await;
        }
        receipt
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for PaymentsServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(Self::NAME, env!("CARGO_PKG_VERSION")))
    }
}
