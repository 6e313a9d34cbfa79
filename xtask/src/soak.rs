//! `cargo xtask soak [--quick] [--phase NAME]`: Toolport driven for a long time, counting what
//! it leaves behind (the `toolport-soak` binary of `reliability/`). Not part of `cargo xtask
//! test`: the full soak takes over a quarter of an hour.
//!
//! The binaries come from the shared dev build ([`workspace::build_bin`]), not a release one:
//! the soak judges what is left behind (children, file descriptors, the trend of resident
//! memory), which optimization does not change, and the dev build is the one `cargo xtask
//! test` has made already, with debug assertions and overflow checks on. A release build
//! would compile the whole tree a second time for nothing the verdicts look at.

use std::process::Command;

use anyhow::{Result, bail};

use crate::{step, workspace};

/// The variable `toolport-soak` reads the stdio server's path from (the fixtures'
/// `FIXTURE_BINARY_VAR`).
const FIXTURE_VAR: &str = "TOOLPORT_FIXTURE";

/// Takes the arguments of `cargo xtask soak` out of `flags`: whether it is the quick soak,
/// and the one phase to run, if one is named. Leaves any other flag for the caller to refuse.
pub(crate) fn take_args(flags: &mut Vec<&str>) -> Result<(bool, Option<String>)> {
    let quick = flags.contains(&"--quick");
    flags.retain(|&flag| flag != "--quick");
    let phase = match flags.iter().position(|&flag| flag == "--phase") {
        Some(at) => {
            flags.remove(at);
            if at >= flags.len() || flags[at].starts_with('-') {
                bail!("`--phase` needs the name of a phase");
            }
            Some(flags.remove(at).to_owned())
        }
        None => None,
    };
    Ok((quick, phase))
}

/// Builds `toolport-soak` and the stdio server, and runs the soak; fails when a verdict does.
pub(crate) fn run(quick: bool, phase: Option<&str>) -> Result<()> {
    let soak = workspace::build_bin("toolport-soak")?;
    let fixture = workspace::build_bin("toolport-fixture")?;
    let mut command = Command::new(soak);
    command
        .current_dir(workspace::root())
        .env(FIXTURE_VAR, fixture);
    if quick {
        command.arg("--quick");
    }
    if let Some(phase) = phase {
        command.args(["--phase", phase]);
    }
    let name = if quick { "soak (quick)" } else { "soak" };
    step::run(name, &mut command).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(line: &str) -> (Result<(bool, Option<String>)>, Vec<String>) {
        let mut flags: Vec<&str> = line.split_whitespace().collect();
        let taken = take_args(&mut flags);
        (taken, flags.into_iter().map(str::to_owned).collect())
    }

    #[test]
    fn quick_and_a_phase_are_taken_and_the_rest_left() {
        let (taken, rest) = take("--phase crash-loop --quick --bogus");
        assert_eq!(taken.unwrap(), (true, Some("crash-loop".to_owned())));
        assert_eq!(rest, ["--bogus"]);
        let (taken, rest) = take("");
        assert_eq!(taken.unwrap(), (false, None));
        assert!(rest.is_empty());
    }

    #[test]
    fn a_phase_flag_without_a_name_is_an_error() {
        for line in ["--phase", "--phase --quick"] {
            let (taken, _) = take(line);
            let error = format!("{:#}", taken.unwrap_err());
            assert!(error.contains("needs the name of a phase"), "{error}");
        }
    }
}
