//! Running the matrix: each [`Cell`] alone, within its bound, between two censuses, so that
//! whatever it left behind (a child, a zombie, a file descriptor) fails it.
//!
//! Cells run one after another. A census counts the whole process, so two cells at once would
//! each see the other's children as their own leaks.

use std::time::{Duration, Instant};

use super::{Cell, Failed, Fault, Timing, Transport};
use crate::census::{Census, Leak};

/// How long the runner waits, after a cell, for its leftovers to go: a connection closed in
/// the background is reaped a moment later.
const SETTLE: Duration = Duration::from_secs(3);
/// How often it looks again while it waits.
const POLL: Duration = Duration::from_millis(20);

/// What became of one cell.
#[derive(Debug, Clone)]
pub struct CellReport {
    /// The row.
    pub fault: Fault,
    /// The column.
    pub transport: Transport,
    /// What the cell saw, or why it failed.
    pub outcome: Result<String, Failed>,
    /// How long the cell ran, set-up and tear-down included (the wait for leftovers not).
    pub elapsed: Duration,
}

impl CellReport {
    /// Whether the cell's expectation held and it left nothing behind.
    pub fn passed(&self) -> bool {
        self.outcome.is_ok()
    }
}

/// Runs `cells` one after another, judging their times as `timing` says, calling `on_report`
/// as each one ends, and returns every report in the order run.
///
/// Before the first cell it starts and reaps one child process, so that what the runtime
/// sets up once for child processes (its `SIGCHLD` handling) is not counted as the first
/// cell's leak.
pub async fn run_cells(
    cells: Vec<Cell>,
    timing: Timing,
    mut on_report: impl FnMut(&CellReport),
) -> Vec<CellReport> {
    warm_up().await;
    let mut reports = Vec::with_capacity(cells.len());
    for cell in cells {
        let report = run_cell(&cell, timing).await;
        on_report(&report);
        reports.push(report);
    }
    reports
}

/// Runs one cell on a task of its own (so a panic fails the cell, not the run), bounded by
/// `cell.bound`, then checks the census.
async fn run_cell(cell: &Cell, timing: Timing) -> CellReport {
    let before = Census::take();
    let started = Instant::now();
    let mut task = tokio::spawn(timing.scope((cell.run)()));
    let outcome = match tokio::time::timeout(cell.bound, &mut task).await {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(join)) if join.is_panic() => Err(Failed(format!(
            "panicked: {}",
            panic_message(join.into_panic())
        ))),
        Ok(Err(join)) => Err(Failed(format!("its task ended abnormally: {join}"))),
        Err(_) => {
            task.abort();
            Err(Failed(format!(
                "did not finish within its bound of {:.1} s",
                cell.bound.as_secs_f64()
            )))
        }
    };
    let elapsed = started.elapsed();
    let outcome = match (outcome, leftovers(&before).await) {
        (outcome, None) => outcome,
        (Ok(seen), Some(leak)) => Err(Failed(format!("left behind {leak} (after: {seen})"))),
        (Err(why), Some(leak)) => Err(Failed(format!("{why}; and left behind {leak}"))),
    };
    CellReport {
        fault: cell.fault,
        transport: cell.transport,
        outcome,
        elapsed,
    }
}

/// What is still there, since `before`, once [`SETTLE`] has passed; `None` as soon as nothing
/// is.
async fn leftovers(before: &Census) -> Option<Leak> {
    let deadline = Instant::now() + SETTLE;
    loop {
        let leak = before.leaks_since(&Census::take())?;
        if Instant::now() >= deadline {
            return Some(leak);
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Starts and reaps one child process, so that the runtime's one-time set-up for children is
/// in place before the first census.
async fn warm_up() {
    let child = tokio::process::Command::new("true")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .await;
    if let Err(error) = child {
        eprintln!("toolport-faults: could not start `true` to warm up: {error}");
    }
}

/// The text of a panic's payload.
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    match payload.downcast::<String>() {
        Ok(message) => *message,
        Err(payload) => payload.downcast::<&str>().map_or_else(
            |_| "(no message)".to_owned(),
            |message| (*message).to_owned(),
        ),
    }
}
