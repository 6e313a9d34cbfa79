//! What `cargo xtask bench` runs: the client processes of every workload, their sizes, and the
//! pairs it compares. A new workload is one more [`Workload`] variant, its rows in
//! [`Plan::new`], and its comparisons; a new client is one more [`Client`] variant
//! (`client.rs`), its rows and its comparisons.

use std::ffi::OsString;

use super::client::{Client, Flavour, Negotiation, Programs, argv};

/// One thing measured, for every client that can do it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Workload {
    /// 1. Sequential `tools/call echo` over stdio.
    Seq,
    /// 2. The same with 32 calls in flight on one session.
    Concurrent,
    /// 1 again, against `server-everything` (a Node server) instead of the Rust echo server.
    Everything,
    /// 3. Spawn, `initialize`, `tools/list`, close, repeated inside one client process.
    Cold,
    /// 3 for the whole process: start the client, one lifecycle, exit.
    Process,
    /// 4. Tool discovery once per agent turn on a warm session.
    Discovery,
    /// 4b. An agent turn on a warm session (the tools offered, one call mapped back), through
    /// the agent-framework adapters and directly.
    AgentTurn,
    /// 5. Sequential `tools/call echo` over Streamable HTTP on 127.0.0.1.
    HttpSeq,
    /// 5b. The same with 32 calls in flight on one session.
    HttpConcurrent,
    /// 5c. 5 against `server-everything` (Node) over Streamable HTTP.
    HttpEverything,
    /// 6. 50 servers, each on its own session, started concurrently to ready.
    Fleet,
    /// 9. 1,000 idle Streamable HTTP sessions, one per tenant, against one server.
    Tenants,
    /// 9b. The same without the listening stream, as a fleet of tenants may run.
    QuietTenants,
    /// 9c. The same on MCP 2026-07-28, which has no session and no listening stream.
    Tenants2026,
}

impl Workload {
    /// Every workload, in the order the report shows them.
    pub(crate) const ALL: [Self; 14] = [
        Self::Seq,
        Self::Concurrent,
        Self::Everything,
        Self::Cold,
        Self::Process,
        Self::Discovery,
        Self::AgentTurn,
        Self::HttpSeq,
        Self::HttpConcurrent,
        Self::HttpEverything,
        Self::Fleet,
        Self::Tenants,
        Self::QuietTenants,
        Self::Tenants2026,
    ];

    /// Whether Toolport's ratios on this workload are of client CPU per call (or turn) rather than of
    /// time per call: over HTTP the goal is the client's cost, whatever the server's, and an
    /// agent turn's is the time the turn spends in the client.
    pub(crate) fn ratio_on_cpu(self) -> bool {
        matches!(
            self,
            Self::HttpSeq | Self::HttpConcurrent | Self::HttpEverything | Self::AgentTurn
        )
    }

    /// A short name, for the report's keys.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Self::Seq => "seq",
            Self::Concurrent => "concurrent",
            Self::Everything => "everything",
            Self::Cold => "cold",
            Self::Process => "process",
            Self::Discovery => "discovery",
            Self::AgentTurn => "agent_turn",
            Self::HttpSeq => "http_seq",
            Self::HttpConcurrent => "http_concurrent",
            Self::HttpEverything => "http_everything",
            Self::Fleet => "fleet",
            Self::Tenants => "tenants",
            Self::QuietTenants => "quiet_tenants",
            Self::Tenants2026 => "tenants_2026",
        }
    }

    /// The heading in the printed table.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Self::Seq => "1. stdio, sequential tools/call echo",
            Self::Concurrent => "2. stdio, 32 calls in flight",
            Self::Everything => "1b. stdio, sequential, against server-everything",
            Self::Cold => "3. cold start in process: spawn + initialize + tools/list + close",
            Self::Process => "3b. whole-process cold start",
            Self::Discovery => "4. per-turn tool discovery on a warm session",
            Self::AgentTurn => {
                "4b. an agent turn (tools offered, one call mapped back), through rig and ADK-Rust"
            }
            Self::HttpSeq => "5. Streamable HTTP on 127.0.0.1, sequential tools/call echo",
            Self::HttpConcurrent => "5b. Streamable HTTP on 127.0.0.1, 32 calls in flight",
            Self::HttpEverything => {
                "5c. Streamable HTTP on 127.0.0.1, sequential, against server-everything"
            }
            Self::Fleet => "6. fleet of stdio servers started concurrently to ready",
            Self::Tenants => "9. idle Streamable HTTP tenant sessions, one per tenant, to ready",
            Self::QuietTenants => "9b. the same without the listening stream",
            Self::Tenants2026 => "9c. the same on MCP 2026-07-28 (no session, no listening stream)",
        }
    }
}

/// How big each workload is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sizes {
    /// Rounds of the interleaved schedule.
    pub(crate) rounds: usize,
    /// Calls per stdio run against the echo server.
    pub(crate) calls: usize,
    /// Calls per run against server-everything (stdio and Streamable HTTP), which answers in
    /// milliseconds.
    pub(crate) everything_calls: usize,
    /// Calls per Streamable HTTP run against the Rust server.
    pub(crate) http_calls: usize,
    /// Lifecycles per in-process cold-start run.
    pub(crate) cold: usize,
    /// Lifecycles at the start of each cold-start run left out of its samples: every client's
    /// first ones are slower while its process warms (code paged in, allocator and runtime
    /// grown), and the row compares the lifecycles after.
    pub(crate) cold_warm_up: usize,
    /// Whole processes per client per round.
    pub(crate) processes: usize,
    /// Fleet runs per client per round, each its own process: one run is a single sample of
    /// about 100 ms.
    pub(crate) fleet_runs: usize,
    /// Turns per discovery run.
    pub(crate) turns: usize,
    /// Servers in the fleet.
    pub(crate) fleet: usize,
    /// Tenant sessions in the `tenants` row.
    pub(crate) tenants: usize,
}

impl Sizes {
    /// The full run, or the quick one (fewer rounds and calls, for development).
    pub(crate) fn new(quick: bool) -> Self {
        if quick {
            Self {
                rounds: 3,
                calls: 1_000,
                everything_calls: 100,
                http_calls: 100,
                cold: 10,
                cold_warm_up: 3,
                processes: 2,
                fleet_runs: 2,
                turns: 300,
                fleet: 50,
                tenants: 1_000,
            }
        } else {
            Self {
                rounds: 5,
                calls: 5_000,
                everything_calls: 500,
                http_calls: 500,
                cold: 60,
                cold_warm_up: 10,
                processes: 4,
                fleet_runs: 4,
                turns: 2_000,
                fleet: 50,
                tenants: 1_000,
            }
        }
    }
}

/// One client on one workload: a process to run each round.
#[derive(Debug)]
pub(crate) struct Row {
    /// What it measures.
    pub(crate) workload: Workload,
    /// Who.
    pub(crate) client: Client,
    /// The program and its arguments.
    pub(crate) argv: Vec<OsString>,
    /// How many processes per round ([`Workload::Process`] and [`Workload::Fleet`] run
    /// several, a sample each).
    pub(crate) processes: usize,
    /// Samples at the start of each process left out ([`Sizes::cold_warm_up`] on
    /// [`Workload::Cold`], none elsewhere).
    pub(crate) warm_up: usize,
}

/// A ratio to report: Toolport's figure over a peer's, on one workload.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Comparison {
    /// The workload.
    pub(crate) workload: Workload,
    /// The Toolport client.
    pub(crate) toolport: Client,
    /// The peer.
    pub(crate) peer: Client,
}

/// Everything one `cargo xtask bench` runs.
#[derive(Debug)]
pub(crate) struct Plan {
    /// The sizes.
    pub(crate) sizes: Sizes,
    /// Every row; each round runs them all in this order.
    pub(crate) rows: Vec<Row>,
    /// The ratios to report.
    pub(crate) comparisons: Vec<Comparison>,
}

impl Plan {
    /// The plan for `programs` at `sizes`.
    pub(crate) fn new(programs: &Programs, sizes: Sizes) -> Self {
        use Client::*;
        use Flavour::*;
        use Negotiation::*;
        use Workload::*;

        let echo = vec![programs.echo_server.clone().into_os_string()];
        let everything = vec![programs.everything.clone().into_os_string(), "stdio".into()];
        let n = |n: usize| vec!["--n".to_owned(), n.to_string()];
        let calls = n(sizes.calls);
        let mut concurrent = n(sizes.calls);
        concurrent.extend(["--concurrency".to_owned(), "32".to_owned()]);

        let stdio = [
            Toolport(Current),
            Rmcp(Current),
            Toolport(Multi),
            Rmcp(Multi),
        ];
        let all = [TypeScript, TypeScriptV2(Legacy2025), Python, Floor];
        let mut rows = Vec::new();
        let mut add =
            |workload: Workload, clients: &[Client], options: &[String], server: &[OsString]| {
                for &client in clients {
                    if client == ToolportCli && programs.cli.is_none() {
                        continue;
                    }
                    let argv = argv(programs, client, workload, options, server);
                    let processes = match workload {
                        Process => sizes.processes,
                        Fleet => sizes.fleet_runs,
                        _ => 1,
                    };
                    let warm_up = if workload == Cold {
                        sizes.cold_warm_up
                    } else {
                        0
                    };
                    rows.push(Row {
                        workload,
                        client,
                        argv,
                        processes,
                        warm_up,
                    });
                }
            };
        // The same wire on MCP 2026-07-28, for Toolport, raw rmcp and the TypeScript SDK v2; the
        // echo servers speak both.
        let on_2026 = [Toolport2026, Rmcp2026, TypeScriptV2(Pinned2026)];
        add(Seq, &stdio, &calls, &echo);
        add(Seq, &on_2026, &calls, &echo);
        add(Seq, &all, &calls, &echo);
        add(Concurrent, &stdio, &concurrent, &echo);
        add(Concurrent, &on_2026, &concurrent, &echo);
        add(Concurrent, &all, &concurrent, &echo);
        let mut everything_options = n(sizes.everything_calls);
        everything_options.extend(["--arg".to_owned(), "message".to_owned()]);
        add(
            Everything,
            &[Toolport(Current), Rmcp(Current), TypeScript],
            &everything_options,
            &everything,
        );
        add(
            Cold,
            &[
                Toolport(Current),
                Rmcp(Current),
                Toolport2026,
                Rmcp2026,
                TypeScript,
                TypeScriptV2(Legacy2025),
                TypeScriptV2(Pinned2026),
                TypeScriptV2(Auto),
                Python,
            ],
            &n(sizes.cold),
            &echo,
        );
        add(
            Process,
            &[ToolportCli, Rmcp(Current), TypeScript, Python],
            &n(1),
            &echo,
        );
        add(
            Discovery,
            &[
                Toolport(Current),
                ToolportGemini,
                ToolportEveryTurn,
                Rmcp(Current),
                TypeScript,
                TypeScriptV2(Legacy2025),
                Python,
                Toolport2026,
                Rmcp2026,
                TypeScriptV2(Pinned2026),
            ],
            &n(sizes.turns),
            &echo,
        );
        // The adapters against a hand-written loop doing the same work (the tools offered as
        // the request takes them, the call's answer written as a message), and that loop
        // against the bare toolset; declarations for Gemini in all.
        add(
            AgentTurn,
            &[ToolportLoop, ToolportRig, ToolportAdk, ToolportGemini],
            &n(sizes.calls),
            &echo,
        );
        let http_server = vec![programs.http_server.clone().into_os_string()];
        let transport = ["--transport".to_owned(), "http".to_owned()];
        let mut http_calls = n(sizes.http_calls);
        http_calls.extend(transport.clone());
        let mut http_concurrent = n(sizes.http_calls);
        http_concurrent.extend(["--concurrency".to_owned(), "32".to_owned()]);
        http_concurrent.extend(transport);
        let http = [
            Toolport(Current),
            Rmcp(Current),
            RmcpPooled(Current),
            Toolport(Multi),
            Rmcp(Multi),
            RmcpPooled(Multi),
            TypeScript,
            TypeScriptV2(Legacy2025),
            Python,
        ];
        add(HttpSeq, &http, &http_calls, &http_server);
        add(HttpSeq, &on_2026, &http_calls, &http_server);
        add(HttpConcurrent, &http, &http_concurrent, &http_server);
        add(HttpConcurrent, &on_2026, &http_concurrent, &http_server);
        // server-everything serves `/mcp` on the port in `PORT`, on Node 22.
        let everything_http = vec![
            programs.node.clone().into_os_string(),
            programs.everything.clone().into_os_string(),
            "streamableHttp".into(),
        ];
        let mut everything_http_calls = everything_options.clone();
        everything_http_calls
            .extend(["--transport", "http", "--port-env", "PORT"].map(String::from));
        add(
            HttpEverything,
            &http,
            &everything_http_calls,
            &everything_http,
        );
        add(Fleet, &stdio, &n(sizes.fleet), &echo);
        let mut tenants = n(sizes.tenants);
        tenants.extend(["--transport", "http", "--concurrency", "32"].map(String::from));
        add(Tenants, &[Toolport(Current)], &tenants, &http_server);
        let mut on_2026 = tenants.clone();
        on_2026.extend(["--protocol", "2026-07-28"].map(String::from));
        tenants.push("--no-listening".to_owned());
        add(QuietTenants, &[Toolport(Current)], &tenants, &http_server);
        add(Tenants2026, &[Toolport(Current)], &on_2026, &http_server);

        let pair = |workload, toolport, peer| Comparison {
            workload,
            toolport,
            peer,
        };
        let mut comparisons = Vec::new();
        for workload in [Seq, Concurrent] {
            comparisons.extend([
                pair(workload, Toolport(Current), Rmcp(Current)),
                pair(workload, Toolport(Multi), Rmcp(Multi)),
                pair(workload, Toolport(Current), TypeScript),
                pair(workload, Toolport(Current), TypeScriptV2(Legacy2025)),
                pair(workload, Toolport(Current), Python),
                pair(workload, Toolport(Current), Floor),
            ]);
        }
        // Toolport on 2026-07-28 against the peers on the same version.
        for workload in [Seq, Concurrent, Discovery, HttpSeq, HttpConcurrent] {
            comparisons.extend([
                pair(workload, Toolport2026, Rmcp2026),
                pair(workload, Toolport2026, TypeScriptV2(Pinned2026)),
            ]);
        }
        comparisons.extend([
            pair(Cold, Toolport2026, Rmcp2026),
            pair(Cold, Toolport2026, TypeScriptV2(Pinned2026)),
            pair(Cold, Toolport2026, TypeScriptV2(Auto)),
            // Discover, then list, against the 2025-11-25 handshake, then list.
            pair(Cold, Toolport2026, Toolport(Current)),
            pair(Everything, Toolport(Current), Rmcp(Current)),
            pair(Everything, Toolport(Current), TypeScript),
            pair(Cold, Toolport(Current), Rmcp(Current)),
            pair(Cold, Toolport(Current), TypeScript),
            pair(Cold, Toolport(Current), TypeScriptV2(Legacy2025)),
            pair(Cold, Toolport(Current), Python),
            pair(Process, ToolportCli, Rmcp(Current)),
            pair(Process, ToolportCli, TypeScript),
            pair(Process, ToolportCli, Python),
            pair(Discovery, ToolportGemini, Toolport(Current)),
            pair(Discovery, Toolport(Current), ToolportEveryTurn),
            pair(Discovery, Toolport(Current), Rmcp(Current)),
            pair(Discovery, Toolport(Current), TypeScript),
            pair(Discovery, Toolport(Current), TypeScriptV2(Legacy2025)),
            pair(Discovery, Toolport(Current), Python),
            pair(AgentTurn, ToolportRig, ToolportLoop),
            pair(AgentTurn, ToolportAdk, ToolportLoop),
            pair(AgentTurn, ToolportLoop, ToolportGemini),
        ]);
        for workload in [HttpSeq, HttpConcurrent, HttpEverything] {
            comparisons.extend([
                pair(workload, Toolport(Current), Rmcp(Current)),
                pair(workload, Toolport(Multi), Rmcp(Multi)),
                pair(workload, Toolport(Current), RmcpPooled(Current)),
                pair(workload, Toolport(Multi), RmcpPooled(Multi)),
                pair(workload, Toolport(Current), TypeScript),
                pair(workload, Toolport(Current), TypeScriptV2(Legacy2025)),
                pair(workload, Toolport(Current), Python),
            ]);
        }
        comparisons.extend([
            pair(Fleet, Toolport(Current), Rmcp(Current)),
            pair(Fleet, Toolport(Multi), Rmcp(Multi)),
        ]);
        Self {
            sizes,
            rows,
            comparisons,
        }
    }
}
