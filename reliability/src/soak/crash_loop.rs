//! The `crash-loop` phase: `McpServerManager`, from an `mcp.json`, supervising a stdio server
//! that crashes soon after every start (`toolport-fixture lab --exit-after-ms`), restarting it
//! again and again, while a steady server of the same fleet answers a call every 10 ms.
//!
//! Besides the census, the phase checks that the steady server answered every call and never
//! crashed, that the flaky one was restarted again and again and never given up on, and,
//! once a second, that no zombie lingers from one second to the next.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::{broadcast, oneshot};
use tokio::time::MissedTickBehavior;
use toolport::manager::{ManagerEvent, ManagerEventKind, McpServerManager, ServerStatus};

use super::Options;
use super::measure::{Failures, RssTrace, Work};
use super::plan::thousands;
use super::servers::{self, fixture_args};
use crate::census::Census;

/// The server that keeps answering.
const STEADY: &str = "steady";
/// The server that crashes after every start.
const FLAKY: &str = "flaky";
/// How often the steady server is called.
const STEADY_EVERY: Duration = Duration::from_millis(10);
/// How often the flaky server is called, when it is listed.
const FLAKY_EVERY: Duration = Duration::from_millis(50);
/// How often the manager checks that a server still runs (its default is a second).
const HEALTH_INTERVAL: Duration = Duration::from_millis(100);
/// How often the children and resident memory are sampled.
const SAMPLE_EVERY: Duration = Duration::from_secs(1);

/// Runs the crash loop for `options.plan.crash_loop`.
pub(super) async fn run(options: &Options, trace: Arc<RssTrace>) -> Work {
    let dir = std::env::temp_dir().join(format!("toolport-soak-{}", std::process::id()));
    let work = match write_config(&dir, options) {
        Ok(config) => supervise(&config, options.plan.crash_loop, trace).await,
        Err(error) => Work {
            failures: vec![error],
            ..Work::default()
        },
    };
    let _ = std::fs::remove_dir_all(&dir);
    work
}

/// Writes the fleet's `mcp.json` into `dir`: the steady lab server and the flaky one, which
/// crashes `options.plan.crash_every` after each start and is restarted without end (its
/// restarts never reset, as it never stays up for a minute, so its attempts are many).
fn write_config(dir: &Path, options: &Options) -> Result<std::path::PathBuf, String> {
    let fixture = options.fixture.display().to_string();
    let config = json!({
        "mcpServers": {
            STEADY: {
                "command": fixture,
                "args": fixture_args(None),
                "timeout": 10,
            },
            FLAKY: {
                "command": fixture,
                "args": fixture_args(Some(options.plan.crash_every)),
                "timeout": 10,
                "restart": {"maxAttempts": 1_000_000, "backoffMs": 50, "maxBackoffMs": 200},
            },
        }
    });
    let path = dir.join("mcp.json");
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, config.to_string()))
        .map_err(|error| format!("writing {}: {error}", path.display()))?;
    Ok(path)
}

/// Starts the fleet of `config`, calls it and watches it for `duration`, then shuts it down.
async fn supervise(config: &Path, duration: Duration, trace: Arc<RssTrace>) -> Work {
    let manager = match McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .load(config)
    {
        Ok(builder) => builder
            .health_interval(HEALTH_INTERVAL)
            .always_prefix(true)
            .build(),
        Err(error) => {
            return Work {
                failures: vec![error.to_string()],
                ..Work::default()
            };
        }
    };
    let manager = Arc::new(manager);
    let (stop_counting, stopped) = oneshot::channel();
    let counting = tokio::spawn(count_events(manager.subscribe(), stopped));
    let mut failures: Vec<String> = manager
        .start_all()
        .await
        .failures()
        .map(ToString::to_string)
        .collect();

    let began = Instant::now();
    let deadline = tokio::time::Instant::from_std(began + duration);
    let steady = tokio::spawn(call_steady(Arc::clone(&manager), deadline));
    let flaky = tokio::spawn(call_flaky(Arc::clone(&manager), deadline));
    let children = watch_children(&trace, began, duration).await;
    trace.record(1.0);
    let (steady, flaky) = (steady.await, flaky.await);
    let flaky_status = manager.status(FLAKY);
    manager.shutdown().await;
    let _ = stop_counting.send(());
    let events = counting.await.unwrap_or_default();

    let mut notes = Vec::new();
    match steady {
        Ok((calls, steady_failures)) => {
            failures.extend(steady_failures.lines("calls to the steady server"));
            notes.push(format!("{} calls to the steady server", thousands(calls)));
        }
        Err(error) => failures.push(format!("the steady caller panicked: {error}")),
    }
    match flaky {
        Ok(calls) => notes.push(format!(
            "calls to the flaky server: {} answered, {} failed, {} while it was down",
            thousands(calls.answered),
            thousands(calls.failed),
            thousands(calls.absent)
        )),
        Err(error) => failures.push(format!("the flaky caller panicked: {error}")),
    }
    failures.extend(events.failures(flaky_status));
    failures.extend(children.lingering);
    notes.push(format!(
        "flaky: {} crashes, {} restarts, {} failed starts; at most {} children at once",
        events.flaky_crashes,
        events.flaky_restarts(),
        events.flaky_start_failures,
        children.most
    ));
    Work {
        done: format!(
            "{} restarts in {} s",
            thousands(events.flaky_restarts()),
            duration.as_secs()
        ),
        failures,
        notes,
    }
}

/// Calls the steady server's `echo` every [`STEADY_EVERY`] until `deadline`, looking the tool
/// up in the manager each time, as an agent's turn would. Returns how many calls it made and
/// those that failed.
async fn call_steady(
    manager: Arc<McpServerManager>,
    deadline: tokio::time::Instant,
) -> (usize, Failures) {
    let failures = Failures::default();
    let mut ticks = tokio::time::interval(STEADY_EVERY);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut calls = 0;
    while ticks.tick().await < deadline {
        calls += 1;
        let called = async {
            let echo = manager
                .tool(&format!("{STEADY}__echo"), None)
                .await
                .map_err(|error| toolport::error_chain(&error))?;
            servers::echo(&echo, &format!("steady {calls}")).await
        };
        if let Err(error) = called.await {
            failures.record(error);
        }
    }
    (calls, failures)
}

/// What became of the calls to the flaky server.
#[derive(Debug, Default)]
struct FlakyCalls {
    /// Answered with their own text.
    answered: usize,
    /// Failed: the server crashed under them, most likely.
    failed: usize,
    /// Not made: the server was down, so its tool was not listed.
    absent: usize,
}

/// Calls the flaky server's `echo` every [`FLAKY_EVERY`] until `deadline`, when it is listed.
async fn call_flaky(manager: Arc<McpServerManager>, deadline: tokio::time::Instant) -> FlakyCalls {
    let mut calls = FlakyCalls::default();
    let mut ticks = tokio::time::interval(FLAKY_EVERY);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    while ticks.tick().await < deadline {
        let Ok(echo) = manager.tool(&format!("{FLAKY}__echo"), None).await else {
            calls.absent += 1;
            continue;
        };
        match servers::echo(&echo, "flaky").await {
            Ok(()) => calls.answered += 1,
            Err(_) => calls.failed += 1,
        }
    }
    calls
}

/// What the children of the process looked like, sampled once a second.
#[derive(Debug, Default)]
struct Children {
    /// The most descendants seen at once.
    most: usize,
    /// One line for each zombie seen in two samples in a row: nobody reaped it for a second.
    lingering: Vec<String>,
}

/// Samples the children and resident memory every [`SAMPLE_EVERY`] for `duration` from
/// `began`.
async fn watch_children(trace: &RssTrace, began: Instant, duration: Duration) -> Children {
    let mut children = Children::default();
    let mut zombies_before = HashSet::new();
    let mut ticks = tokio::time::interval(SAMPLE_EVERY);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    ticks.tick().await;
    while began.elapsed() < duration {
        let wait = duration.saturating_sub(began.elapsed());
        if tokio::time::timeout(wait, ticks.tick()).await.is_err() {
            break;
        }
        trace.record(began.elapsed().as_secs_f64() / duration.as_secs_f64());
        let census = Census::take();
        children.most = children.most.max(census.descendants.len());
        let zombies: HashSet<u32> = census
            .descendants
            .iter()
            .filter(|child| child.state == 'Z')
            .map(|child| child.pid)
            .collect();
        for pid in zombies.intersection(&zombies_before) {
            children
                .lingering
                .push(format!("zombie {pid} was not reaped for a second"));
        }
        zombies_before = zombies;
    }
    children
}

/// The lifecycle events counted over the phase.
#[derive(Debug, Default)]
struct EventCounts {
    /// The flaky server's connection closed while it ran.
    flaky_crashes: usize,
    /// Its start or restart completed.
    flaky_running: usize,
    /// A restart of it failed, to be tried again.
    flaky_start_failures: usize,
    /// It was given up on, and why.
    flaky_failed: Vec<String>,
    /// The steady server crashed, and how.
    steady_crashes: Vec<String>,
    /// Events the counter fell too far behind to see.
    missed: u64,
}

impl EventCounts {
    /// The restarts of the flaky server that completed: each `Running` after its first start.
    fn flaky_restarts(&self) -> usize {
        self.flaky_running.saturating_sub(1)
    }

    /// What the events say went wrong: the steady server crashed, the flaky one was given up
    /// on or not restarted again and again, or events were missed.
    fn failures(&self, flaky_status: Option<ServerStatus>) -> Vec<String> {
        let mut failures = Vec::new();
        failures.extend(
            self.steady_crashes
                .iter()
                .map(|details| format!("the steady server crashed: {details}")),
        );
        failures.extend(
            self.flaky_failed
                .iter()
                .map(|error| format!("the flaky server was given up on: {error}")),
        );
        if self.flaky_restarts() < 2 {
            failures.push(format!(
                "the flaky server was restarted {} times, not again and again",
                self.flaky_restarts()
            ));
        }
        if let Some(status @ (ServerStatus::Failed { .. } | ServerStatus::Stopped)) = flaky_status {
            failures.push(format!("the flaky server ended {status}"));
        }
        if self.missed > 0 {
            failures.push(format!("{} lifecycle events were missed", self.missed));
        }
        failures
    }
}

/// Counts the fleet's lifecycle events until `stop`.
async fn count_events(
    mut events: broadcast::Receiver<ManagerEvent>,
    mut stop: oneshot::Receiver<()>,
) -> EventCounts {
    let mut counts = EventCounts::default();
    loop {
        let event = tokio::select! {
            _ = &mut stop => return counts,
            event = events.recv() => event,
        };
        let event = match event {
            Ok(event) => event,
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                counts.missed += missed;
                continue;
            }
            Err(broadcast::error::RecvError::Closed) => return counts,
        };
        match (event.server.as_str(), event.kind) {
            (STEADY, ManagerEventKind::Crashed { details }) => counts
                .steady_crashes
                .push(details.unwrap_or_else(|| "its connection closed".to_owned())),
            (FLAKY, ManagerEventKind::Crashed { .. }) => counts.flaky_crashes += 1,
            (FLAKY, ManagerEventKind::Running) => counts.flaky_running += 1,
            (FLAKY, ManagerEventKind::StartFailed { .. }) => counts.flaky_start_failures += 1,
            (FLAKY, ManagerEventKind::Failed { error }) => counts.flaky_failed.push(error),
            _ => {}
        }
    }
}
