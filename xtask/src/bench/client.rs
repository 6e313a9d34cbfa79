//! The client programs `cargo xtask bench` runs: who each one is, where the programs are, and
//! each client's command line on a workload.

use std::ffi::OsString;
use std::path::PathBuf;

use super::plan::Workload;

/// A tokio runtime flavour, for the Rust clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flavour {
    /// `current_thread`.
    Current,
    /// `multi_thread`.
    Multi,
}

/// How the TypeScript SDK v2 client picks its MCP version: its `versionNegotiation` mode,
/// `--protocol` of `bench/clients/ts_v2_client.mjs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Negotiation {
    /// `'legacy'`, the default: the 2025-11-25 `initialize` handshake, no probe.
    Legacy2025,
    /// `{ pin: '2026-07-28' }`: `server/discover` must offer 2026-07-28. Over stdio the probe
    /// runs on a sibling server process, then the session's own process starts.
    Pinned2026,
    /// `'auto'`: `server/discover` (over stdio on a sibling process, as pinned), falling back to
    /// `initialize`. The echo servers answer it, so the session is on 2026-07-28.
    Auto,
}

impl Negotiation {
    /// The client script's `--protocol` value.
    fn protocol(self) -> &'static str {
        match self {
            Self::Legacy2025 => "2025-11-25",
            Self::Pinned2026 => "2026-07-28",
            Self::Auto => "auto",
        }
    }
}

/// A client program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Client {
    /// Toolport's `McpToolset` over `StdioServer`.
    Toolport(Flavour),
    /// The same with `list_every_turn(true)`.
    ToolportEveryTurn,
    /// The same with its tools fitted to Gemini (`provider(Provider::Gemini)`): names and
    /// schemas adapted once per list.
    ToolportGemini,
    /// The `toolport` command (`toolport tools`), release build.
    ToolportCli,
    /// Toolport's toolset, fitted to Gemini, called directly by a hand-written loop on the
    /// Gemini API through `provider_messages` (`OfferedTools`, `call_all`, `answer_messages`).
    ToolportLoop,
    /// Toolport through its rig adapter (`toolport-rig`): the tools, fitted to Gemini,
    /// installed in rig's tool server, which offers their definitions and runs the call.
    ToolportRig,
    /// Toolport through its ADK-Rust adapter (`toolport-adk`): ADK's `Toolset` and `Tool`,
    /// declared for Gemini by the adapter.
    ToolportAdk,
    /// Toolport on `current_thread`, pinned to MCP 2026-07-28 (`server/discover`, then each
    /// request stamped with its version) instead of 2025-11-25.
    Toolport2026,
    /// Raw rmcp 3.11; over Streamable HTTP, `StreamableHttpClientTransport::from_uri` (a new
    /// TCP connection per request).
    Rmcp(Flavour),
    /// Raw rmcp 3.11 on `current_thread`, on MCP 2026-07-28 (`ClientLifecycleMode::Discover`);
    /// over Streamable HTTP on the pooled `reqwest::Client`, as [`Client::RmcpPooled`].
    Rmcp2026,
    /// Raw rmcp 3.11 over Streamable HTTP on one explicitly built, pooled `reqwest::Client`
    /// with `TCP_NODELAY` (`--pooled`): rmcp configured well.
    RmcpPooled(Flavour),
    /// The TypeScript SDK v1 on Node 22, on MCP 2025-11-25.
    TypeScript,
    /// The TypeScript SDK v2 on Node 22, with one of its version negotiation modes.
    TypeScriptV2(Negotiation),
    /// The Python SDK.
    Python,
    /// A JSON line over a pipe and back.
    Floor,
}

impl Client {
    /// The client's name in the report.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Toolport(Flavour::Current) => "toolport current_thread",
            Self::Toolport(Flavour::Multi) => "toolport multi_thread",
            Self::ToolportEveryTurn => "toolport list_every_turn",
            Self::ToolportGemini => "toolport fitted to gemini",
            Self::ToolportCli => "toolport tools (CLI)",
            Self::ToolportLoop => "toolport, a hand-written gemini loop",
            Self::ToolportRig => "toolport through toolport-rig",
            Self::ToolportAdk => "toolport through toolport-adk",
            Self::Toolport2026 => "toolport current_thread, 2026-07-28",
            Self::Rmcp2026 => "rmcp current_thread, 2026-07-28",
            Self::Rmcp(Flavour::Current) => "rmcp current_thread",
            Self::Rmcp(Flavour::Multi) => "rmcp multi_thread",
            Self::RmcpPooled(Flavour::Current) => "rmcp+reqwest pooled current_thread",
            Self::RmcpPooled(Flavour::Multi) => "rmcp+reqwest pooled multi_thread",
            Self::TypeScript => "typescript sdk",
            Self::TypeScriptV2(Negotiation::Legacy2025) => "typescript v2 sdk",
            Self::TypeScriptV2(Negotiation::Pinned2026) => "typescript v2 sdk, 2026-07-28",
            Self::TypeScriptV2(Negotiation::Auto) => "typescript v2 sdk, auto",
            Self::Python => "python sdk",
            Self::Floor => "pipe floor",
        }
    }
}

/// Where the programs are.
#[derive(Debug)]
pub(crate) struct Programs {
    /// `target/release/toolport-bench-toolport`.
    pub(crate) toolport: PathBuf,
    /// `target/release/toolport-bench-manager`: Toolport's fleet, through its server manager.
    pub(crate) manager: PathBuf,
    /// `target/release/toolport-bench-search`: the fleet-of-tools row, in process.
    pub(crate) search: PathBuf,
    /// `target/release/toolport-bench-loop`: Toolport called by a hand-written Gemini loop.
    pub(crate) agent_loop: PathBuf,
    /// `target/release/toolport-bench-rig`: Toolport through its rig adapter.
    pub(crate) rig: PathBuf,
    /// `target/release/toolport-bench-adk`: Toolport through its ADK-Rust adapter.
    pub(crate) adk: PathBuf,
    /// `target/release/toolport-bench-rmcp`.
    pub(crate) rmcp: PathBuf,
    /// `target/release/toolport-bench-floor`.
    pub(crate) floor: PathBuf,
    /// `target/release/toolport`, if it built.
    pub(crate) cli: Option<PathBuf>,
    /// `target/release/toolport-echo-server`.
    pub(crate) echo_server: PathBuf,
    /// `target/release/toolport-bench-http-server`: the same Lab server over Streamable HTTP.
    pub(crate) http_server: PathBuf,
    /// Node 22.
    pub(crate) node: PathBuf,
    /// `bench/clients/ts_client.mjs`.
    pub(crate) ts_client: PathBuf,
    /// The TypeScript SDK's package folder.
    pub(crate) ts_sdk: PathBuf,
    /// `bench/clients/ts_v2_client.mjs`.
    pub(crate) ts_v2_client: PathBuf,
    /// The TypeScript SDK v2 client's package folder (`@modelcontextprotocol/client`).
    pub(crate) ts_client_v2_sdk: PathBuf,
    /// The venv's Python.
    pub(crate) python: PathBuf,
    /// `bench/clients/py_client.py`.
    pub(crate) py_client: PathBuf,
    /// `mcp-server-everything` (a Node script; over stdio it runs on the `node` on `PATH`).
    pub(crate) everything: PathBuf,
}

/// The command line of `client` on `workload`, with `options` and then `server` after `--`.
pub(crate) fn argv(
    programs: &Programs,
    client: Client,
    workload: Workload,
    options: &[String],
    server: &[OsString],
) -> Vec<OsString> {
    let mode = match workload {
        Workload::Seq | Workload::Everything | Workload::HttpSeq | Workload::HttpEverything => {
            "seq"
        }
        Workload::Concurrent | Workload::HttpConcurrent => "concurrent",
        Workload::Cold | Workload::Process => "cold",
        Workload::Discovery => "discovery",
        Workload::AgentTurn => "turn",
        Workload::Fleet => "fleet",
        Workload::Tenants | Workload::QuietTenants | Workload::Tenants2026 => "tenants",
    };
    let rust = |program: &PathBuf, flavour: Option<Flavour>| {
        let mut argv: Vec<OsString> = vec![program.into(), mode.into()];
        if let Some(flavour) = flavour {
            argv.push("--flavour".into());
            argv.push(
                if flavour == Flavour::Multi {
                    "multi"
                } else {
                    "current"
                }
                .into(),
            );
        }
        argv
    };
    let mut argv = match client {
        Client::Toolport(flavour) if workload == Workload::Fleet => {
            rust(&programs.manager, Some(flavour))
        }
        Client::Toolport(flavour) => rust(&programs.toolport, Some(flavour)),
        Client::ToolportEveryTurn => {
            let mut argv = rust(&programs.toolport, Some(Flavour::Current));
            argv.push("--every-turn".into());
            argv
        }
        Client::ToolportGemini => {
            let mut argv = rust(&programs.toolport, Some(Flavour::Current));
            argv.extend(["--provider".into(), "gemini".into()]);
            argv
        }
        Client::Toolport2026 => {
            let mut argv = rust(&programs.toolport, Some(Flavour::Current));
            argv.extend(["--protocol".into(), "2026-07-28".into()]);
            argv
        }
        Client::ToolportLoop => rust(&programs.agent_loop, Some(Flavour::Current)),
        Client::ToolportRig => rust(&programs.rig, Some(Flavour::Current)),
        Client::ToolportAdk => rust(&programs.adk, Some(Flavour::Current)),
        Client::Rmcp(flavour) => rust(&programs.rmcp, Some(flavour)),
        Client::Rmcp2026 => {
            let mut argv = rust(&programs.rmcp, Some(Flavour::Current));
            argv.extend(["--pooled".into(), "--protocol".into(), "2026-07-28".into()]);
            argv
        }
        Client::RmcpPooled(flavour) => {
            let mut argv = rust(&programs.rmcp, Some(flavour));
            argv.push("--pooled".into());
            argv
        }
        Client::Floor => rust(&programs.floor, None),
        Client::TypeScript => vec![
            programs.node.clone().into(),
            programs.ts_client.clone().into(),
            programs.ts_sdk.clone().into(),
            mode.into(),
        ],
        Client::TypeScriptV2(negotiation) => vec![
            programs.node.clone().into(),
            programs.ts_v2_client.clone().into(),
            programs.ts_client_v2_sdk.clone().into(),
            mode.into(),
            "--protocol".into(),
            negotiation.protocol().into(),
        ],
        Client::Python => vec![
            programs.python.clone().into(),
            programs.py_client.clone().into(),
            mode.into(),
        ],
        // The CLI lists the tools of the server after `--`, once, on the peers' 2025-11-25.
        Client::ToolportCli => {
            let cli = programs.cli.clone().unwrap_or_default();
            let mut argv: Vec<OsString> = ["tools", "--protocol", "2025-11-25", "--"]
                .into_iter()
                .map(OsString::from)
                .collect();
            argv.insert(0, cli.into());
            argv.extend(server.iter().cloned());
            return argv;
        }
    };
    argv.extend(options.iter().map(OsString::from));
    argv.push("--".into());
    if client == Client::Floor {
        argv.extend([programs.floor.clone().into_os_string(), "serve".into()]);
    } else {
        argv.extend(server.iter().cloned());
    }
    argv
}
