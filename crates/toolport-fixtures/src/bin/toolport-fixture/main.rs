//! `toolport-fixture`: serves a fixture server over stdio, or misbehaves on purpose.
//!
//! ```text
//! toolport-fixture MODE [--lifetime-secs N] [--start-delay-ms N] [--exit-after-ms N]
//!                       [--freeze-after-ms N] [--daemon-secs N] [--after-stdin-closes-secs N]
//! ```
//!
//! | mode               | does                                                                 |
//! | ------------------ | -------------------------------------------------------------------- |
//! | `tasks`            | serves the task tracker (`toolport-task-tracker`)                    |
//! | `lab`              | serves the lab server (`toolport-lab`); `crash` exits with status 3  |
//! | `lab-2025`         | the lab server serving only the versions up to 2025-11-25: it refuses `server/discover` with -32022; its `crash` is a tool error |
//! | `lab-2025-http`    | `lab-2025-http PORT`: the same over Streamable HTTP; `lab-2025-sse PORT` over legacy SSE; see `over_http.rs` |
//! | `hostile-schemas`  | serves `HostileSchemaServer`: schemas that nest deep or grow when inlined |
//! | `exit-during-init` | reads the `initialize` request, writes `fatal: database unreachable` to stderr, exits 1 |
//! | `garbage`          | prints `Starting server on port 8080...` to stdout, then nothing valid |
//! | `hang`             | reads stdin and never answers                                        |
//! | `faulty`           | commits the fault matrix's faults on demand; see `faulty/mod.rs`     |
//! | `named`            | `named LABEL NAME...`: tools of those names, each answering `LABEL: NAME`; see `named.rs` |
//! | `defined`          | `defined TOOLS_JSON`: the tools that JSON array defines, schemas and all; see `defined.rs` |
//!
//! Every stdio mode exits when stdin closes, and every mode by itself after its lifetime: 300 s for the serving
//! modes and 30 s for the others, unless `--lifetime-secs` says otherwise.
//!
//! The serving modes also take `--start-delay-ms N`, a server slow to start (it reads nothing
//! for that long); `--exit-after-ms N`, a server that crashes: after that long serving, it
//! writes `fatal: lost the database connection` to stderr and exits with status 3; and
//! `--freeze-after-ms N`, a server that hangs with its pipes open: after that long serving, it
//! stops itself with `SIGSTOP`; and `--daemon-secs N`, a server that starts a daemon at once:
//! `sleep N`, double-forked into a session of its own, which neither its process group nor
//! its children hold (Linux only: it waits for the daemon in `/proc`); and
//! `--after-stdin-closes-secs N`, a server that ignores the end of its stdin: it lives on that
//! long after stdin closes (within its lifetime).

mod defined;
mod faulty;
mod misbehave;
mod named;
mod over_http;
mod serve;

use std::process::ExitCode;
use std::time::Duration;

use rmcp::model::ProtocolVersion;
use toolport_fixtures::LabServer;

use crate::over_http::Http;

const USAGE: &str = "usage: toolport-fixture tasks|lab|lab-2025|hostile-schemas|exit-during-init|garbage|hang \
     [--lifetime-secs N] [--start-delay-ms N] [--exit-after-ms N] [--freeze-after-ms N] \
     [--daemon-secs N] [--after-stdin-closes-secs N]\n       \
     toolport-fixture faulty [--ledger PATH] [--hang-initialize-starts N] [--lifetime-secs N]\n       \
     toolport-fixture named LABEL NAME...\n       \
     toolport-fixture lab-2025-http|lab-2025-sse PORT\n       \
     toolport-fixture defined TOOLS_JSON";

/// What the process was asked to be.
#[derive(Debug, Clone, Copy)]
enum Mode {
    Tasks,
    Lab,
    Lab2025,
    HostileSchemas,
    ExitDuringInit,
    Garbage,
    Hang,
}

impl Mode {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "tasks" => Self::Tasks,
            "lab" => Self::Lab,
            "lab-2025" => Self::Lab2025,
            "hostile-schemas" => Self::HostileSchemas,
            "exit-during-init" => Self::ExitDuringInit,
            "garbage" => Self::Garbage,
            "hang" => Self::Hang,
            _ => return None,
        })
    }

    fn default_lifetime(self) -> Duration {
        match self {
            Self::Tasks | Self::Lab | Self::Lab2025 | Self::HostileSchemas => {
                Duration::from_secs(300)
            }
            Self::ExitDuringInit | Self::Garbage | Self::Hang => Duration::from_secs(30),
        }
    }
}

/// The command line: the mode and how long, and when, the process lives.
#[derive(Debug)]
struct Args {
    mode: Mode,
    lifetime: Duration,
    timing: serve::Timing,
}

fn parse_args(args: &[String]) -> Option<Args> {
    let (mode, mut rest) = args.split_first()?;
    let mode = Mode::parse(mode)?;
    let mut parsed = Args {
        mode,
        lifetime: mode.default_lifetime(),
        timing: serve::Timing::default(),
    };
    while let [flag, value, tail @ ..] = rest {
        let number: u64 = value.parse().ok()?;
        match flag.as_str() {
            "--lifetime-secs" => parsed.lifetime = Duration::from_secs(number),
            "--start-delay-ms" => parsed.timing.start_delay = Duration::from_millis(number),
            "--exit-after-ms" => parsed.timing.exit_after = Some(Duration::from_millis(number)),
            "--freeze-after-ms" => {
                parsed.timing.freeze_after = Some(Duration::from_millis(number));
            }
            "--daemon-secs" => parsed.timing.daemon = Some(Duration::from_secs(number)),
            "--after-stdin-closes-secs" => {
                parsed.timing.after_stdin_closes = Duration::from_secs(number);
            }
            _ => return None,
        }
        rest = tail;
    }
    rest.is_empty().then_some(parsed)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first().map(|(mode, rest)| (mode.as_str(), rest)) {
        Some(("faulty", faulty_args)) => std::process::exit(faulty::run(faulty_args)),
        Some(("named", named_args)) => std::process::exit(named::run(named_args)),
        Some(("lab-2025-http", port)) => std::process::exit(over_http::run(Http::Streamable, port)),
        Some(("lab-2025-sse", port)) => std::process::exit(over_http::run(Http::LegacySse, port)),
        Some(("defined", defined_args)) => std::process::exit(defined::run(defined_args)),
        _ => {}
    }
    let Some(Args {
        mode,
        lifetime,
        timing,
    }) = parse_args(&args)
    else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let code = match mode {
        Mode::Tasks => serve::tasks(lifetime, timing),
        Mode::Lab => serve::lab(LabServer::new(), lifetime, timing),
        Mode::Lab2025 => serve::run(
            LabServer::new().serving_up_to(&ProtocolVersion::V_2025_11_25),
            lifetime,
            timing,
        ),
        Mode::HostileSchemas => serve::hostile_schemas(lifetime, timing),
        Mode::ExitDuringInit => misbehave::exit_during_init(lifetime),
        Mode::Garbage => misbehave::garbage(lifetime),
        Mode::Hang => misbehave::hang(lifetime),
    };
    // Exit at once: a thread may still be blocked reading stdin, and waiting for it to finish
    // would defeat the bounded lifetime.
    std::process::exit(code)
}
