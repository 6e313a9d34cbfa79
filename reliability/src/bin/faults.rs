//! `toolport-faults`: runs the fault matrix and prints it; exits non-zero if any cell failed.
//!
//! ```text
//! toolport-faults [--lower-bounds-only] [FILTER]
//! ```
//!
//! `FILTER`, a piece of a fault's label or a transport's (`crash`, `stdio`, `Streamable`),
//! runs only the cells it matches, case aside. `--lower-bounds-only` judges only that each
//! timeout waited its whole bound, not how soon an error came ([`Timing::LowerBoundsOnly`]).
//! `cargo xtask faults` builds this program and the `toolport-fixture` it starts, and runs it.

use std::process::ExitCode;

use toolport_reliability::faults::{self, Timing, runner, table};

const USAGE: &str = "usage: toolport-faults [--lower-bounds-only] [FILTER]";

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|arg| arg == "-h" || arg == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let before = args.len();
    args.retain(|arg| arg != "--lower-bounds-only");
    let timing = if args.len() < before {
        Timing::LowerBoundsOnly
    } else {
        Timing::Strict
    };
    let filter = match args.as_slice() {
        [] => None,
        [filter] if !filter.starts_with('-') => Some(filter.to_lowercase()),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("toolport-faults: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let all = faults::all_cells();
    let selected: Vec<faults::Cell> = faults::all_cells()
        .into_iter()
        .filter(|cell| {
            filter.as_deref().is_none_or(|filter| {
                cell.fault.label().to_lowercase().contains(filter)
                    || cell.transport.label().to_lowercase().contains(filter)
            })
        })
        .collect();
    if selected.is_empty() {
        eprintln!("toolport-faults: no cell matches {filter:?}");
        return ExitCode::from(2);
    }
    let total = selected.len();
    let mut done = 0;
    let reports = runtime.block_on(runner::run_cells(selected, timing, |report| {
        done += 1;
        let mark = if report.passed() { "ok" } else { "FAIL" };
        eprintln!(
            "[{done}/{total}] {} / {}: {mark} ({:.1} s)",
            report.fault.label(),
            report.transport.label(),
            report.elapsed.as_secs_f64()
        );
    }));
    runtime.shutdown_background();
    print!("{}", table::render(&all, &reports));
    if reports.iter().all(runner::CellReport::passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
