//! The command line every benchmark client takes:
//!
//! ```text
//! CLIENT WORKLOAD [--n N] [--concurrency C] [--flavour current|multi] [--every-turn]
//!        [--arg NAME] [--transport stdio|http] [--port-env VAR] [--pooled] [--provider NAME]
//!        [--no-listening] [--protocol 2026-07-28] -- SERVER...
//! ```
//!
//! With `--transport http` the server command is an HTTP server to spawn, which prints its
//! endpoint on its first stdout line, or with `--port-env VAR` is given a free port in env var
//! `VAR` and serves `/mcp` on it (see [`crate::http`]); the client talks Streamable HTTP to it.
//! Only `seq`, `concurrent` and `tenants` support it, and `tenants` needs it.
//!
//! `--pooled` is for the raw rmcp client over HTTP: rmcp's Streamable HTTP client on one
//! explicitly built, pooled `reqwest::Client` instead of `from_uri`'s. Other clients ignore it.
//!
//! `--no-listening` is for Toolport's `tenants`: each tenant's session opens no listening
//! stream (`HttpServer::listening_stream(false)`). `--protocol 2026-07-28` has Toolport and raw
//! rmcp speak that version on any workload (`server/discover` instead of `initialize`; for
//! `tenants`, no session, so no listening stream either); both pin 2025-11-25 otherwise.
//!
//! `--arg` names `echo`'s text argument: `text` for the Lab server (the default), `message`
//! for `server-everything`.
//!
//! | workload     | measures                                                                 |
//! | ------------ | ------------------------------------------------------------------------ |
//! | `seq`        | N `tools/call echo`, one at a time, on one warm session                  |
//! | `concurrent` | N `tools/call echo` with C in flight on one warm session                 |
//! | `cold`       | N times: spawn, `initialize`, `tools/list`, close                        |
//! | `discovery`  | N agent turns' tool discovery on one warm session                        |
//! | `turn`       | N agent turns on one warm session: the tools offered, then one `echo` call |
//! | `fleet`      | N servers started concurrently to ready (Toolport: through its manager)  |
//! | `tenants`    | N idle Streamable HTTP sessions, one per tenant, C connecting at a time  |

use std::process::Stdio;

use anyhow::{Context, Result, bail};
use tokio::process::{Child, Command};

/// What a client process is asked to measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Sequential calls.
    Seq,
    /// Calls with several in flight.
    Concurrent,
    /// Whole session lifecycles.
    Cold,
    /// Tool discovery on a warm session, once per turn.
    Discovery,
    /// Agent turns on a warm session: the tools offered, then one call.
    Turn,
    /// Many servers at once.
    Fleet,
    /// Many idle tenant sessions on one HTTP server (Toolport only).
    Tenants,
}

impl Workload {
    /// The workload's name on the command line and in the result line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Seq => "seq",
            Self::Concurrent => "concurrent",
            Self::Cold => "cold",
            Self::Discovery => "discovery",
            Self::Turn => "turn",
            Self::Fleet => "fleet",
            Self::Tenants => "tenants",
        }
    }

    fn parse(name: &str) -> Result<Self> {
        Ok(match name {
            "seq" => Self::Seq,
            "concurrent" => Self::Concurrent,
            "cold" => Self::Cold,
            "discovery" => Self::Discovery,
            "turn" => Self::Turn,
            "fleet" => Self::Fleet,
            "tenants" => Self::Tenants,
            other => bail!("unknown workload `{other}`"),
        })
    }
}

/// Which tokio runtime a Rust client runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// `new_current_thread`.
    Current,
    /// `new_multi_thread` with the default number of workers.
    Multi,
}

impl Flavour {
    /// The flavour's name on the command line and in the result line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Current => "current",
            Self::Multi => "multi",
        }
    }
}

/// How a client reaches the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// The server is a child process on stdin and stdout.
    Stdio,
    /// The server is a child process serving Streamable HTTP on 127.0.0.1.
    Http,
}

/// A parsed command line.
#[derive(Debug, Clone)]
pub struct Args {
    /// What to measure.
    pub workload: Workload,
    /// How many calls, lifecycles, turns, servers or tenants.
    pub n: usize,
    /// How many calls in flight (`concurrent`), or tenants connecting at once (`tenants`).
    pub concurrency: usize,
    /// The runtime flavour.
    pub flavour: Flavour,
    /// Discovery lists the tools afresh every turn instead of using a cache.
    pub every_turn: bool,
    /// The name of `echo`'s text argument.
    pub arg: String,
    /// How the client reaches the server.
    pub transport: Transport,
    /// Over HTTP, the env var that tells the server which port to listen on, for a server that
    /// does not print its endpoint.
    pub port_env: Option<String>,
    /// Over HTTP, raw rmcp uses its own pooled `reqwest::Client` rather than `from_uri`.
    pub pooled: bool,
    /// Toolport's tenants open the listening stream (the default); `--no-listening` clears it.
    pub listening: bool,
    /// Speak MCP 2026-07-28 (`--protocol 2026-07-28`) instead of 2025-11-25: Toolport and raw
    /// rmcp, on every workload.
    pub protocol_2026: bool,
    /// Toolport only: the model provider the toolset fits its tools to (`gemini`, `openai`,
    /// `anthropic`).
    pub provider: Option<String>,
    /// The server's program and arguments.
    pub server: Vec<String>,
}

impl Args {
    /// Parses this process's command line.
    pub fn from_env() -> Result<Self> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        Self::parse(&args).context(
            "usage: CLIENT seq|concurrent|cold|discovery|turn|fleet|tenants [--n N] [--concurrency C] \
             [--flavour current|multi] [--every-turn] [--arg NAME] [--transport stdio|http] \
             [--port-env VAR] [--pooled] [--provider NAME] [--no-listening] \
             [--protocol 2026-07-28] -- SERVER...",
        )
    }

    /// Parses `args` (without the program name).
    pub fn parse(args: &[String]) -> Result<Self> {
        let split = args.iter().position(|arg| arg == "--");
        let (options, server) = match split {
            Some(at) => (&args[..at], args[at + 1..].to_vec()),
            None => bail!("no server command after `--`"),
        };
        if server.is_empty() {
            bail!("the server command after `--` is empty");
        }
        let (workload, mut rest) = match options.split_first() {
            Some((workload, rest)) => (Workload::parse(workload)?, rest),
            None => bail!("no workload given"),
        };
        let mut parsed = Self {
            workload,
            n: 1_000,
            concurrency: 32,
            flavour: Flavour::Current,
            every_turn: false,
            arg: "text".to_owned(),
            transport: Transport::Stdio,
            port_env: None,
            pooled: false,
            listening: true,
            protocol_2026: false,
            provider: None,
            server,
        };
        while let Some((flag, tail)) = rest.split_first() {
            rest = tail;
            match flag.as_str() {
                "--every-turn" => {
                    parsed.every_turn = true;
                    continue;
                }
                "--pooled" => {
                    parsed.pooled = true;
                    continue;
                }
                "--no-listening" => {
                    parsed.listening = false;
                    continue;
                }
                _ => {}
            }
            let Some((value, tail)) = rest.split_first() else {
                bail!("`{flag}` needs a value");
            };
            rest = tail;
            match flag.as_str() {
                "--arg" => parsed.arg = value.clone(),
                "--port-env" => parsed.port_env = Some(value.clone()),
                "--provider" => parsed.provider = Some(value.clone()),
                "--protocol" => {
                    parsed.protocol_2026 = match value.as_str() {
                        "2025-11-25" => false,
                        "2026-07-28" => true,
                        other => bail!("unknown protocol version `{other}`"),
                    }
                }
                "--transport" => {
                    parsed.transport = match value.as_str() {
                        "stdio" => Transport::Stdio,
                        "http" => Transport::Http,
                        other => bail!("unknown transport `{other}`"),
                    }
                }
                "--n" => parsed.n = value.parse().context("--n")?,
                "--concurrency" => parsed.concurrency = value.parse().context("--concurrency")?,
                "--flavour" => {
                    parsed.flavour = match value.as_str() {
                        "current" => Flavour::Current,
                        "multi" => Flavour::Multi,
                        other => bail!("unknown flavour `{other}`"),
                    }
                }
                other => bail!("unknown option `{other}`"),
            }
        }
        let over_http = parsed.transport == Transport::Http;
        match parsed.workload {
            Workload::Seq | Workload::Concurrent => {}
            Workload::Tenants if !over_http => bail!("`tenants` needs --transport http"),
            Workload::Tenants => {}
            _ if over_http => {
                bail!("--transport http supports only `seq`, `concurrent` and `tenants`")
            }
            _ => {}
        }
        if parsed.port_env.is_some() && parsed.transport != Transport::Http {
            bail!("--port-env needs --transport http");
        }
        if parsed.n == 0 || parsed.concurrency == 0 {
            bail!("--n and --concurrency must be at least 1");
        }
        Ok(parsed)
    }

    /// The server's program.
    pub fn program(&self) -> &str {
        &self.server[0]
    }

    /// The server's arguments.
    pub fn server_args(&self) -> &[String] {
        &self.server[1..]
    }

    /// Starts the server as a child process with piped stdin and stdout, killed if dropped.
    pub fn spawn_server(&self) -> Result<Child> {
        Command::new(self.program())
            .args(self.server_args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("cannot start `{}`", self.program()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn parses_options_and_the_server() {
        let args = Args::parse(&strings(
            "concurrent --n 50 --flavour multi --concurrency 8 -- srv --x",
        ))
        .unwrap();
        assert_eq!(args.workload, Workload::Concurrent);
        assert_eq!((args.n, args.concurrency), (50, 8));
        assert_eq!(args.flavour, Flavour::Multi);
        assert_eq!(args.program(), "srv");
        assert_eq!(args.server_args(), ["--x"]);
        assert!(!args.pooled);
    }

    #[test]
    fn parses_the_flags_without_values() {
        let args = Args::parse(&strings(
            "seq --pooled --transport http --every-turn --n 3 -- srv",
        ))
        .unwrap();
        assert!(args.pooled && args.every_turn);
        assert_eq!((args.transport, args.n), (Transport::Http, 3));
    }

    #[test]
    fn a_port_env_is_for_http_only() {
        let http = Args::parse(&strings("seq --transport http --port-env PORT -- srv")).unwrap();
        assert_eq!(http.port_env.as_deref(), Some("PORT"));
        assert!(Args::parse(&strings("seq --port-env PORT -- srv")).is_err());
    }

    #[test]
    fn tenants_run_over_http_only() {
        let tenants = Args::parse(&strings("tenants --n 10 --transport http -- srv")).unwrap();
        assert_eq!((tenants.workload, tenants.n), (Workload::Tenants, 10));
        assert!(Args::parse(&strings("tenants -- srv")).is_err());
        assert!(Args::parse(&strings("fleet --transport http -- srv")).is_err());
    }

    #[test]
    fn tenants_take_the_listening_stream_and_the_protocol_version() {
        let plain = Args::parse(&strings("tenants --transport http -- srv")).unwrap();
        assert!(plain.listening && !plain.protocol_2026);
        let line = "tenants --transport http --no-listening --protocol 2026-07-28 -- srv";
        let quiet = Args::parse(&strings(line)).unwrap();
        assert!(!quiet.listening && quiet.protocol_2026);
        let unknown = "tenants --transport http --protocol 2024-11-05 -- srv";
        assert!(Args::parse(&strings(unknown)).is_err());
    }

    #[test]
    fn rejects_a_missing_server_or_value() {
        assert!(Args::parse(&strings("seq --n 5")).is_err());
        assert!(Args::parse(&strings("seq --n -- srv")).is_err());
        assert!(Args::parse(&strings("bogus -- srv")).is_err());
    }
}
