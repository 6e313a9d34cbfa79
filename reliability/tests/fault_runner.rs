//! The fault matrix's runner fails a cell that leaks a file descriptor, panics or outlives its
//! bound, passes one that does none of these, and the table shows each as it ended.
//!
//! One test, in a process of its own: a census counts the whole process.

use std::fs::File;
use std::sync::Mutex;
use std::time::Duration;

use toolport_reliability::faults::runner::run_cells;
use toolport_reliability::faults::{
    Cell, CellRun, Failed, Fault, Passed, Timing, Transport, table,
};

/// The file the leaking cell keeps open, closed by the test once the runner has judged.
static KEPT_OPEN: Mutex<Vec<File>> = Mutex::new(Vec::new());

fn passes() -> CellRun {
    Box::pin(async { Ok("a typed error in 5 ms".to_owned()) })
}

fn leaks_a_file() -> CellRun {
    Box::pin(async {
        let file = File::open("/proc/self/status").map_err(|error| Failed(error.to_string()))?;
        KEPT_OPEN.lock().unwrap().push(file);
        Ok("kept a file open".to_owned())
    })
}

fn explodes() -> Result<Passed, Failed> {
    panic!("boom")
}

fn panics() -> CellRun {
    Box::pin(async { explodes() })
}

fn hangs() -> CellRun {
    Box::pin(std::future::pending())
}

fn stdio_cell(fault: Fault, bound: Duration, run: fn() -> CellRun) -> Cell {
    Cell {
        fault,
        transport: Transport::Stdio,
        bound,
        run,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_that_leaks_panics_or_hangs_fails_and_the_table_says_so() {
    // Far beyond what the quick cells take, so that a loaded machine fails none of them.
    let generous = Duration::from_secs(10);
    let cells = || {
        vec![
            stdio_cell(Fault::CrashMidCall, generous, passes),
            stdio_cell(Fault::HangInCall, generous, leaks_a_file),
            // Printing a panic's backtrace (RUST_BACKTRACE=1) in a debug build can take
            // seconds on a busy machine; the panic ends the cell long before this bound.
            stdio_cell(Fault::HangInInitialize, Duration::from_secs(30), panics),
            stdio_cell(Fault::GarbageOnStdout, Duration::from_millis(200), hangs),
        ]
    };
    let mut seen = 0;
    let reports = run_cells(cells(), Timing::Strict, |_| seen += 1).await;
    KEPT_OPEN.lock().unwrap().clear();
    assert_eq!(seen, 4);

    let why = |index: usize| match &reports[index].outcome {
        Ok(seen) => panic!("cell {index} passed: {seen}"),
        Err(why) => why.to_string(),
    };
    assert!(reports[0].passed(), "{:?}", reports[0].outcome);
    assert!(
        why(1).contains("left behind 1 more file descriptors"),
        "{}",
        why(1)
    );
    assert!(why(1).contains("kept a file open"), "{}", why(1));
    assert_eq!(why(2), "panicked: boom");
    assert!(
        why(3).contains("did not finish within its bound of 0.2 s"),
        "{}",
        why(3)
    );

    let table = table::render(&cells(), &reports);
    let row = |label: &str| {
        table
            .lines()
            .find(|line| line.starts_with(label))
            .unwrap_or_else(|| panic!("no row {label} in\n{table}"))
            .split_whitespace()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("crash mid-call"), ["—", "—", "ok"], "{table}");
    assert_eq!(row("hang in a call"), ["—", "—", "FAIL"], "{table}");
    assert!(table.contains("1 of 4 cells passed"), "{table}");
    assert!(
        table.contains("ok    crash mid-call / stdio"),
        "a line per cell:\n{table}"
    );
    assert!(
        !table.lines().any(|line| line.starts_with("server restart")),
        "rows without a cell run are left out:\n{table}"
    );
}
