//! [`SupportDesk`]: the assistant's two toolsets, each filtered to an allowlist, offered as one
//! with or without tool search, and the servers behind them: the filesystem server over stdio
//! and the billing server over Streamable HTTP.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use toolport::http::HttpServer;
use toolport::provider_messages::ApiShape;
use toolport::search::SearchToolset;
use toolport::stdio::StdioServer;
use toolport::{
    ApprovalPolicy, Decision, Idempotency, JoinedToolset, McpToolset, McpToolsetBuilder,
    ReplayPolicy, ServerExit, Timeouts, ToolCall, Toolset, ToolsetError,
};
use toolport_fixtures::{BillingServer, HttpFixtureServer};

/// The filesystem tools the assistant may use: reads only. The server also lists
/// `get_file_info` and `write_file`.
pub const FILE_TOOLS: [&str; 3] = ["read_text_file", "list_directory", "search_files"];

/// The billing tools the assistant may use. The server also lists `issue_refund`.
pub const BILLING_TOOLS: [&str; 2] = ["get_invoice", "list_invoices"];

/// The key, in the caller's context, that names the person who approved a refund. The
/// application sets it after asking; nothing the model says can.
pub const REFUND_APPROVER: &str = "refund_approved_by";

/// The timeout of every step of both toolsets (connect, initialize, each request): the
/// servers are local and answer at once, so ten seconds is long.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Why the desk could not open.
#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    /// The billing server could not start.
    #[error("the billing server could not start: {0}")]
    Billing(#[source] io::Error),
    /// A toolset could not be built.
    #[error(transparent)]
    Toolset(#[from] ToolsetError),
}

/// The toolsets of one support desk, fitted to one provider, and the billing server behind
/// one of them.
#[derive(Debug)]
pub struct SupportDesk {
    files: Arc<McpToolset>,
    billing: Arc<McpToolset>,
    billing_server: HttpFixtureServer,
    ledger: BillingServer,
}

impl SupportDesk {
    /// Starts the billing server and opens both toolsets, fitted to `shape`'s provider, with the
    /// allowlists [`FILE_TOOLS`] and [`BILLING_TOOLS`]. `files` starts the filesystem server.
    ///
    /// # Errors
    ///
    /// When the billing server cannot listen, or a toolset cannot be built.
    pub async fn open(shape: ApiShape, files: StdioServer) -> Result<Self, DeskError> {
        Self::open_with_billing_tools(shape, files, &BILLING_TOOLS).await
    }

    /// As [`open`](Self::open), with a billing allowlist of your own: the reviewed change that
    /// one day adds `issue_refund`, which [`billing_toolset`] already guards.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub async fn open_with_billing_tools(
        shape: ApiShape,
        files: StdioServer,
        billing_tools: &[&str],
    ) -> Result<Self, DeskError> {
        let ledger = BillingServer::new();
        let billing_server = HttpFixtureServer::start({
            let ledger = ledger.clone();
            move || ledger.clone()
        })
        .await
        .map_err(DeskError::Billing)?;
        let files = files_toolset(files, shape).build().await?;
        let billing = billing_toolset(&billing_server.url(), shape, billing_tools)
            .build()
            .await?;
        Ok(Self {
            files: Arc::new(files),
            billing: Arc::new(billing),
            billing_server,
            ledger,
        })
    }

    /// The toolsets, files first.
    pub fn toolsets(&self) -> [Arc<McpToolset>; 2] {
        [Arc::clone(&self.files), Arc::clone(&self.billing)]
    }

    /// Both toolsets as one, files first: every tool they offer, declared on every turn.
    pub fn tools(&self) -> JoinedToolset {
        let [files, billing] = self.toolsets();
        JoinedToolset::new([files as Arc<dyn Toolset>, billing])
    }

    /// Both toolsets behind tool search: the model is offered the search tool,
    /// `search_tools`, and from the turn after a search the tools it found; a tool no search
    /// found is never declared. Nothing is pinned: finding the ticket, the first need, takes a
    /// search like any other. Searches find only what the allowlists offer.
    pub fn tools_with_search(&self) -> SearchToolset {
        SearchToolset::builder(self.tools()).build()
    }

    /// How many refunds the billing server has made.
    pub fn refunds(&self) -> usize {
        self.ledger.refunds()
    }

    /// Closes both toolsets and stops the billing server. Returns how the filesystem server's
    /// process ended.
    pub async fn close(self) -> ServerExit {
        let files_exit = self.files.close().await;
        self.billing.close().await;
        self.billing_server.stop().await;
        files_exit
    }
}

/// The filesystem toolset: the reads of [`FILE_TOOLS`], fitted to `shape`'s provider.
pub fn files_toolset(server: StdioServer, shape: ApiShape) -> McpToolsetBuilder {
    McpToolset::builder(server)
        .allow(FILE_TOOLS)
        .fit_to(shape.provider())
        .session(|session| session.timeouts(Timeouts::uniform(TIMEOUT)))
}

/// The billing toolset at `url`, offering `allowed`, fitted to `shape`'s provider.
/// `issue_refund` is guarded whether or not it is allowed: it needs a person's approval (see
/// [`refund_approval`]), and gets an idempotency key, so a retried refund refunds once.
pub fn billing_toolset(url: &str, shape: ApiShape, allowed: &[&str]) -> McpToolsetBuilder {
    McpToolset::builder(HttpServer::new(url))
        .allow(allowed.iter().copied())
        .fit_to(shape.provider())
        .session(|session| session.timeouts(Timeouts::uniform(TIMEOUT)))
        .replay(
            ReplayPolicy::default()
                .idempotent("issue_refund", Idempotency::argument("idempotency_key")),
        )
        .layer(refund_approval())
}

/// The approval policy of the billing tools: read-only tools go ahead; `issue_refund` (and any
/// other tool that is not read-only) needs [`REFUND_APPROVER`] in the caller's context.
pub fn refund_approval() -> ApprovalPolicy {
    ApprovalPolicy::new()
        .ask(["issue_refund"])
        .approver(|call: &ToolCall| {
            let approver = call
                .context
                .as_ref()
                .and_then(|context| context.get(REFUND_APPROVER))
                .and_then(Value::as_str)
                .map(str::to_owned);
            async move {
                match approver {
                    Some(_) => Decision::Approve,
                    None => Decision::deny(
                        "a refund needs a billing agent's approval; hand the ticket over",
                    ),
                }
            }
        })
}

/// The filesystem server: this same program, run as `ticket_assistant serve-files <tickets>`.
pub fn files_server(program: impl AsRef<Path>, tickets: impl AsRef<Path>) -> StdioServer {
    StdioServer::new(program.as_ref())
        .arg("serve-files")
        .arg(tickets.as_ref())
}

/// The example's tickets, `tickets/` beside its `Cargo.toml`.
pub fn tickets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tickets")
}
