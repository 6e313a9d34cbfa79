//! The soak (`cargo xtask soak`, the `toolport-soak` binary): Toolport driven for a long time,
//! with a [`Census`](crate::census::Census) at the start and the end of each [`Phase`] to show
//! that it leaves nothing behind.
//!
//! | phase | what it does (full size) |
//! |---|---|
//! | `cycles-stdio`, `cycles-http`, `cycles-sse` | 1,000 sessions, one after another: connect, list the tools, call `echo` once, close |
//! | `calls-stdio`, `calls-http` | 100,000 `echo` calls at 32 in flight on one session |
//! | `crash-loop` | the manager, from an `mcp.json`, restarting a server that crashes 500 ms after every start, for 10 minutes, while another server of the fleet answers calls |
//!
//! Every server is the fixtures' lab server: the `toolport-fixture lab` child process over
//! stdio, and over HTTP and SSE a child process of `toolport-soak` itself ([`serve`]), so that
//! the census counts the client alone. Each phase is judged by [`PhaseReport::verdicts`]: no
//! child process (zombies included) and no file descriptor left once everything is closed and
//! a short settle has passed, resident memory flat within 5% after warm-up, and the work
//! itself done without a failure.

mod calls;
mod crash_loop;
mod cycles;
mod measure;
mod plan;
mod report;
mod servers;

use std::path::PathBuf;

use self::measure::Work;
use self::servers::LabEndpoint;

pub use self::measure::{PhaseReport, RSS_TOLERANCE_PERCENT, RssSummary, SETTLE, Verdict, WARM_UP};
pub use self::plan::{Phase, Plan};
pub use self::report::table;
pub use self::servers::{ServedTransport, serve};

/// What a soak run needs to know.
#[derive(Debug, Clone)]
pub struct Options {
    /// How much work each phase does.
    pub plan: Plan,
    /// The phases to run, in order.
    pub phases: Vec<Phase>,
    /// The `toolport-fixture` binary, the stdio server.
    pub fixture: PathBuf,
    /// The `toolport-soak` binary, started as `toolport-soak serve http|sse` for the servers
    /// over HTTP.
    pub soak_binary: PathBuf,
}

/// Runs the phases of `options` one after another and reports each. A phase whose work
/// fails still closes what it opened and takes its census, so its report says what leaked.
pub async fn run(options: &Options) -> Vec<PhaseReport> {
    let mut reports = Vec::with_capacity(options.phases.len());
    for &phase in &options.phases {
        println!("soak: {} ({})", phase.name(), phase.describe(&options.plan));
        let report = run_phase(phase, options).await;
        println!("{}", report::line(&report));
        reports.push(report);
    }
    reports
}

/// Runs one phase. Its lab server, if it has one of its own, is started before the phase's
/// first census and stopped after its last.
async fn run_phase(phase: Phase, options: &Options) -> PhaseReport {
    let endpoint = match phase {
        Phase::CrashLoop => {
            return measure::phase(phase, |trace| crash_loop::run(options, trace)).await;
        }
        Phase::CyclesStdio | Phase::CallsStdio => Ok(LabEndpoint::stdio(&options.fixture)),
        Phase::CyclesHttp | Phase::CallsHttp => {
            LabEndpoint::served(&options.soak_binary, ServedTransport::Http).await
        }
        Phase::CyclesSse => LabEndpoint::served(&options.soak_binary, ServedTransport::Sse).await,
    };
    let endpoint = match endpoint {
        Ok(endpoint) => endpoint,
        Err(error) => return measure::phase(phase, |_| async { Work::failed(error) }).await,
    };
    let plan = &options.plan;
    let mut report = measure::phase(phase, |trace| async {
        match phase {
            Phase::CallsStdio | Phase::CallsHttp => calls::run(&endpoint, plan, trace).await,
            _ => cycles::run(&endpoint, plan.cycles, trace).await,
        }
    })
    .await;
    if let Err(error) = endpoint.stop().await {
        report.failures.push(error);
    }
    report
}
