//! `cargo xtask`: the Toolport project's own automation, one subcommand per job.
//!
//! Run `cargo xtask help` for the list, and `cargo xtask <task> --help` for one task. To add a
//! job, write a module with a `run` function, then give it a variant of [`task::Task`], a usage
//! text and one arm in each of `Task::parse`, `Task::usage` and `Task::run`.

mod bench;
mod conformance;
mod faults;
mod fuzz;
mod interop;
mod peers;
mod soak;
mod step;
mod task;
mod test;
mod tidy;
mod workspace;

use std::process::ExitCode;

use self::task::Task;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match Task::parse(&args).and_then(Task::run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
