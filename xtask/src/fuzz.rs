//! `cargo xtask fuzz [TARGET] [--smoke | --seconds N]`: the cargo-fuzz targets of `fuzz/`, one
//! after another, on the installed nightly toolchain.
//!
//! cargo-fuzz is installed from crates.io under `target/tools/` when `cargo +nightly fuzz` is
//! not there. Each target starts from its committed corpus (`fuzz/corpus/<target>/`) and writes
//! what it finds to `target/fuzz/corpus/<target>/`, so a run never changes the committed files.
//! A crash, leak, timeout or out-of-memory fails the run, after every target ran, with the path
//! of each input libFuzzer saved under `fuzz/artifacts/<target>/`. See docs/reliability.md.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context as _, Result, bail};

use crate::{step, workspace};

/// How long each target runs under `--smoke`.
pub(crate) const SMOKE_SECONDS: u64 = 60;

/// How long each target runs when no time is given: a full run.
pub(crate) const FULL_SECONDS: u64 = 600;

/// The longest one input may run before libFuzzer calls it a hang.
const INPUT_TIMEOUT_SECONDS: u64 = 20;

/// The largest input libFuzzer makes, in bytes: a server's message of hundreds of kilobytes,
/// as large as the schemas that once nested thousands of levels or grew to gigabytes when
/// their `$ref`s were inlined.
const MAX_INPUT_BYTES: usize = 512 * 1024;

/// The targets that read a tool's input schema also start from the seeds in this folder of
/// `fuzz/` (a `$ref` chain that nests deep once inlined, a definition referenced hundreds of
/// times) and mutate with this dictionary, whose tokens build `$ref` chains.
const SCHEMA_SEEDS: &str = "seeds/schemas";
const SCHEMA_DICTIONARY: &str = "schema.dict";

/// Takes the arguments of `cargo xtask fuzz` out of `flags`: the target named (every target
/// when none is) and how many seconds each runs. Leaves any other flag for the caller to
/// refuse.
pub(crate) fn take_args(flags: &mut Vec<&str>) -> Result<(Option<String>, u64)> {
    let smoke = flags.contains(&"--smoke");
    flags.retain(|&flag| flag != "--smoke");
    let seconds = match flags.iter().position(|&flag| flag == "--seconds") {
        Some(at) => {
            flags.remove(at);
            if at >= flags.len() {
                bail!("`--seconds` needs a number of seconds");
            }
            let value = flags.remove(at);
            match value.parse::<u64>() {
                Ok(seconds) if seconds > 0 => Some(seconds),
                _ => bail!("`--seconds {value}`: expected a whole number of seconds above 0"),
            }
        }
        None => None,
    };
    if smoke && seconds.is_some() {
        bail!("`--smoke` runs each target for {SMOKE_SECONDS} s: give it or `--seconds`");
    }
    let target = flags
        .iter()
        .position(|flag| !flag.starts_with('-'))
        .map(|at| flags.remove(at).to_owned());
    let default = if smoke { SMOKE_SECONDS } else { FULL_SECONDS };
    Ok((target, seconds.unwrap_or(default)))
}

/// Runs `target` (or every target) for `seconds` each; fails when any of them found a crash.
pub(crate) fn run(target: Option<&str>, seconds: u64) -> Result<()> {
    let root = workspace::root();
    let path = path_with_cargo_fuzz(&root)?;
    let every = list_targets(&root, &path)?;
    let targets: Vec<String> = match target {
        Some(name) if every.iter().any(|known| known == name) => vec![name.to_owned()],
        Some(name) => bail!(
            "fuzz: no target `{name}`; the targets are {}",
            every.join(", ")
        ),
        None => every,
    };
    let mut build = cargo_fuzz(&root, &path);
    build.arg("build").args(target);
    step::run("fuzz build", &mut build)?;

    let mut outcomes = Vec::new();
    for target in targets {
        let started = SystemTime::now();
        let clock = Instant::now();
        println!("==> fuzz {target} for {seconds} s");
        let mut run = fuzz_run(&root, &path, &target, seconds)?;
        let status = run
            .status()
            .with_context(|| format!("fuzz: could not start {}", step::show(&run)))?;
        let artifacts = artifacts_since(&root, &target, started)?;
        let outcome = Outcome {
            failed: !status.success() || !artifacts.is_empty(),
            elapsed: clock.elapsed(),
            target,
            artifacts,
        };
        let verdict = if outcome.failed { "FAILED" } else { "ok" };
        println!("<== fuzz {}: {verdict}", outcome.target);
        outcomes.push(outcome);
    }
    report(&outcomes)
}

/// How one target's run ended.
struct Outcome {
    target: String,
    elapsed: Duration,
    /// It crashed, leaked, hung or ran out of memory.
    failed: bool,
    /// The inputs libFuzzer saved during the run.
    artifacts: Vec<PathBuf>,
}

/// Prints one line per target and fails when any of them failed.
fn report(outcomes: &[Outcome]) -> Result<()> {
    println!("\nfuzz: {} target(s)", outcomes.len());
    for outcome in outcomes {
        let verdict = if outcome.failed { "FAILED" } else { "ok" };
        let seconds = outcome.elapsed.as_secs_f64();
        println!("  {:<20} {seconds:>5.0} s  {verdict}", outcome.target);
        for artifact in &outcome.artifacts {
            println!("      artifact: {}", artifact.display());
        }
    }
    let failed = outcomes.iter().filter(|outcome| outcome.failed).count();
    if failed > 0 {
        bail!(
            "fuzz: {failed} target(s) failed; reproduce one with `cargo +nightly fuzz run \
             <target> <artifact>`, then make it a regression test (docs/reliability.md)"
        );
    }
    Ok(())
}

/// `cargo +nightly fuzz run TARGET`, from the committed corpus (and, for a schema target, the
/// schema seeds) into the scratch one, for `seconds`, with inputs up to [`MAX_INPUT_BYTES`].
fn fuzz_run(root: &Path, path: &OsString, target: &str, seconds: u64) -> Result<Command> {
    let scratch = root.join("target").join("fuzz").join("corpus").join(target);
    let committed = root.join("fuzz").join("corpus").join(target);
    let fuzz = root.join("fuzz");
    let reads_schemas = target.starts_with("schema_");
    let mut run = cargo_fuzz(root, path);
    run.args(["run", target]).arg(&scratch).arg(&committed);
    if reads_schemas {
        run.arg(fuzz.join(SCHEMA_SEEDS));
    }
    run.arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-timeout={INPUT_TIMEOUT_SECONDS}"))
        .arg(format!("-max_len={MAX_INPUT_BYTES}"));
    if reads_schemas {
        let mut dictionary = OsString::from("-dict=");
        dictionary.push(fuzz.join(SCHEMA_DICTIONARY));
        run.arg(dictionary);
    }
    // libFuzzer writes new inputs to the first corpus folder, which must exist.
    fs::create_dir_all(&scratch)
        .with_context(|| format!("fuzz: creating {}", scratch.display()))?;
    Ok(run)
}

/// The files libFuzzer saved for `target` (crash-, leak-, timeout-, oom-…) since `started`.
fn artifacts_since(root: &Path, target: &str, started: SystemTime) -> Result<Vec<PathBuf>> {
    let dir = root.join("fuzz").join("artifacts").join(target);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("fuzz: reading {}", dir.display()))?;
        let modified = entry.metadata().and_then(|meta| meta.modified());
        if modified.is_ok_and(|modified| modified >= started) {
            found.push(entry.path());
        }
    }
    found.sort();
    Ok(found)
}

/// The fuzz targets, as `cargo fuzz list` names them.
fn list_targets(root: &Path, path: &OsString) -> Result<Vec<String>> {
    let mut list = cargo_fuzz(root, path);
    list.arg("list");
    let targets: Vec<String> = step::probe(&mut list)
        .with_context(|| format!("fuzz: {} failed", step::show(&list)))?
        .lines()
        .map(str::to_owned)
        .collect();
    if targets.is_empty() {
        bail!("fuzz: {} listed no targets", step::show(&list));
    }
    Ok(targets)
}

/// `cargo +nightly fuzz` in `root`, with `path` as its `PATH`.
fn cargo_fuzz(root: &Path, path: &OsString) -> Command {
    // The rustup proxy, not `$CARGO`: only the proxy takes `+nightly`, which overrides the
    // toolchain that rust-toolchain.toml pins.
    let mut cargo = Command::new("cargo");
    cargo
        .current_dir(root)
        .env("PATH", path)
        .args(["+nightly", "fuzz"]);
    cargo
}

/// A `PATH` with `target/tools/bin` first, where cargo-fuzz is installed from crates.io
/// unless `cargo +nightly fuzz` already works.
fn path_with_cargo_fuzz(root: &Path) -> Result<OsString> {
    let tools = root.join("target").join("tools");
    let mut dirs = vec![tools.join("bin")];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let path = std::env::join_paths(dirs).context("fuzz: a PATH entry holds a `:`")?;
    let version = |path: &OsString| step::probe(cargo_fuzz(root, path).arg("--version"));
    if version(&path).is_some() {
        return Ok(path);
    }
    if step::probe(Command::new("cargo").args(["+nightly", "--version"])).is_none() {
        bail!("fuzz: `cargo +nightly` does not run; cargo-fuzz needs the nightly toolchain");
    }
    let mut install = Command::new(workspace::cargo());
    install
        .args(["install", "cargo-fuzz", "--locked", "--root"])
        .arg(&tools);
    step::run("install cargo-fuzz", &mut install)?;
    match version(&path) {
        Some(_) => Ok(path),
        None => bail!(
            "fuzz: cargo-fuzz is installed in {} but does not run",
            tools.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> (Result<(Option<String>, u64)>, Vec<&str>) {
        let mut flags: Vec<&str> = line.split_whitespace().collect();
        let taken = take_args(&mut flags);
        (taken, flags)
    }

    #[test]
    fn takes_a_target_and_the_time_and_leaves_the_rest() {
        let (taken, rest) = args("mcp_json --seconds 30 --bogus extra");
        assert_eq!(taken.unwrap(), (Some("mcp_json".to_owned()), 30));
        assert_eq!(rest, ["--bogus", "extra"]);
        let (taken, rest) = args("--smoke");
        assert_eq!(taken.unwrap(), (None, SMOKE_SECONDS));
        assert!(rest.is_empty());
        assert_eq!(args("").0.unwrap(), (None, FULL_SECONDS));
    }

    #[test]
    fn a_bad_time_is_an_error() {
        for line in [
            "--seconds",
            "--seconds 0",
            "--seconds soon",
            "--smoke --seconds 9",
        ] {
            assert!(args(line).0.is_err(), "{line}");
        }
    }
}
