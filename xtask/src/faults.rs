//! `cargo xtask faults [--lower-bounds-only] [FILTER]`: the fault matrix (the `toolport-faults`
//! binary of `reliability/`): each fault a server can commit, over each transport where it
//! applies, against a real process or socket, printed as a table. Any failed cell fails the
//! run. Part of `cargo xtask test`, right after interop, with `--lower-bounds-only`: how soon
//! an error came is judged only when the matrix is run by itself.
//!
//! The binaries come from the shared dev build ([`workspace::build_bin`]), which `cargo xtask
//! test` has made already. The runner bounds every cell; this task bounds the whole run too,
//! in case the runner itself wedges.

use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};

use crate::{step, workspace};

/// The variable `toolport-faults` reads the stdio server's path from (the fixtures'
/// `FIXTURE_BINARY_VAR`).
const FIXTURE_VAR: &str = "TOOLPORT_FIXTURE";
/// The whole matrix takes well under a minute; past this it is stuck, and is killed.
const MATRIX_LIMIT: Duration = Duration::from_secs(180);
/// The flag (of this task and of `toolport-faults`) that judges only that each timeout waited
/// its whole bound, not how soon an error came: a loaded machine stretches that.
pub(crate) const LOWER_BOUNDS_ONLY: &str = "--lower-bounds-only";

/// Takes the filter of `cargo xtask faults` out of `flags`: the first argument that is not a
/// flag, if any. Leaves the flags for the caller to refuse.
pub(crate) fn take_filter(flags: &mut Vec<&str>) -> Option<String> {
    let at = flags.iter().position(|flag| !flag.starts_with('-'))?;
    Some(flags.remove(at).to_owned())
}

/// Builds `toolport-faults` and the stdio server, and runs the matrix (the cells whose fault
/// or transport `filter` names, or all), judging only lower bounds when `lower_bounds_only`;
/// fails when a cell does.
pub(crate) fn run(filter: Option<&str>, lower_bounds_only: bool) -> Result<()> {
    let faults = workspace::build_bin("toolport-faults")?;
    let fixture = workspace::build_bin("toolport-fixture")?;
    let mut command = Command::new(faults);
    command
        .current_dir(workspace::root())
        .env(FIXTURE_VAR, fixture);
    if lower_bounds_only {
        command.arg(LOWER_BOUNDS_ONLY);
    }
    if let Some(filter) = filter {
        command.arg(filter);
    }
    println!("==> fault matrix");
    let started = Instant::now();
    let mut child = command
        .spawn()
        .with_context(|| format!("could not start {}", step::show(&command)))?;
    match step::wait_within(&mut child, MATRIX_LIMIT)? {
        Some(status) if status.success() => {
            println!(
                "<== fault matrix: ok in {:.1}s",
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Some(status) => bail!("the fault matrix failed ({status}): see the table above"),
        None => bail!(
            "the fault matrix did not finish within {} s and was killed",
            MATRIX_LIMIT.as_secs()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_argument_that_is_not_a_flag_is_the_filter() {
        let mut flags = vec!["--bogus", "stdio", "crash"];
        assert_eq!(take_filter(&mut flags).as_deref(), Some("stdio"));
        assert_eq!(flags, ["--bogus", "crash"]);
        let mut flags = vec!["--help"];
        assert_eq!(take_filter(&mut flags), None);
        assert_eq!(flags, ["--help"]);
    }
}
