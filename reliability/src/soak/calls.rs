//! The `calls-*` phases: many `echo` calls on one session, a fixed number in flight at once,
//! each checked to come back with its own text.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tokio::task::JoinSet;
use toolport::{McpTool, McpToolset};

use super::Plan;
use super::measure::{Failures, Progress, RssTrace, Work};
use super::plan::thousands;
use super::servers::{self, LabEndpoint};

/// Runs `plan.calls` calls at `plan.in_flight` in flight on one session to `endpoint`, then
/// closes the session.
pub(super) async fn run(endpoint: &LabEndpoint, plan: &Plan, trace: Arc<RssTrace>) -> Work {
    let mut failures = Vec::new();
    let began = Instant::now();
    match McpToolset::builder_shared(endpoint.connector())
        .build()
        .await
    {
        Ok(toolset) => {
            match toolset.tool("echo", None).await {
                Ok(echo) => {
                    let progress = Arc::new(Progress::new(plan.calls, trace));
                    let failed =
                        call_concurrently(echo, plan.calls, plan.in_flight, progress).await;
                    failures.extend(failed.lines("calls"));
                }
                Err(error) => failures.push(toolport::error_chain(&error)),
            }
            let exit = toolset.close().await;
            if !exit.is_clean() {
                failures.push(format!("the session did not close cleanly: {exit}"));
            }
        }
        Err(error) => failures.push(toolport::error_chain(&error)),
    }
    Work {
        done: format!(
            "{} calls, {:.0}/s",
            thousands(plan.calls),
            plan.calls as f64 / began.elapsed().as_secs_f64()
        ),
        failures,
        notes: Vec::new(),
    }
}

/// Makes `calls` calls of `echo` from `in_flight` workers, each taking the next call number
/// until none is left, so that `in_flight` calls are in flight until the last ones.
async fn call_concurrently(
    echo: Arc<McpTool>,
    calls: usize,
    in_flight: usize,
    progress: Arc<Progress>,
) -> Arc<Failures> {
    let next = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(Failures::default());
    let mut workers = JoinSet::new();
    for _ in 0..in_flight {
        let (echo, next, failures, progress) = (
            Arc::clone(&echo),
            Arc::clone(&next),
            Arc::clone(&failures),
            Arc::clone(&progress),
        );
        workers.spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= calls {
                    break;
                }
                if let Err(error) = servers::echo(echo.as_ref(), &format!("call {n}")).await {
                    failures.record(error);
                }
                progress.finish_one();
            }
        });
    }
    while let Some(joined) = workers.join_next().await {
        if let Err(error) = joined {
            failures.record(format!("a worker panicked: {error}"));
        }
    }
    failures
}
