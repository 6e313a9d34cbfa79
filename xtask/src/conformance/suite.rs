//! The suites `cargo xtask conformance` runs, and one run of the suite's `client` command.

use std::fs::{self, File};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use anyhow::{Context as _, Result};

use crate::peers::Peers;
use crate::step;

/// One suite of client scenarios.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Suite {
    /// The suite's name, as `--suite` takes it.
    pub(crate) name: &'static str,
    /// The `--spec-version` filter. Only `all` takes one: the suite matches it exactly against
    /// each scenario's versions, so `2025-11-25` would leave the `backcompat` (2025-03-26),
    /// `extensions` (extension) and `draft` (draft) suites empty.
    spec_version: Option<&'static str>,
}

/// Every suite, in the order they run.
pub(crate) const SUITES: [Suite; 4] = [
    Suite {
        name: "all",
        spec_version: Some("2025-11-25"),
    },
    Suite {
        name: "backcompat",
        spec_version: None,
    },
    Suite {
        name: "extensions",
        spec_version: None,
    },
    Suite {
        name: "draft",
        spec_version: None,
    },
];

/// A suite runs its scenarios in parallel, each bounded by the suite's own 30 s timeout; this
/// bounds the whole suite, startup included.
const SUITE_LIMIT: Duration = Duration::from_secs(90);

/// Where one suite run puts its results (`-o`) and its console output.
#[derive(Debug)]
pub(crate) struct Outputs<'a> {
    /// The `-o` folder, emptied first.
    pub(crate) results: &'a Path,
    /// The file that receives the suite's stdout and stderr.
    pub(crate) log: &'a Path,
}

impl Suite {
    /// Runs the suite against `client`, with `baseline` as the suite's own expected failures.
    /// Returns its exit status, or `None` if it was killed at the time limit.
    pub(crate) fn run(
        &self,
        peers: &Peers,
        client: &Path,
        baseline: &Path,
        outputs: &Outputs<'_>,
    ) -> Result<Option<ExitStatus>> {
        if outputs.results.exists() {
            fs::remove_dir_all(outputs.results)
                .with_context(|| format!("clearing {}", outputs.results.display()))?;
        }
        let log = File::create(outputs.log)
            .with_context(|| format!("creating {}", outputs.log.display()))?;
        let mut cmd = Command::new(&peers.node22);
        cmd.arg(&peers.conformance)
            .args(["client", "--suite", self.name, "--command"])
            .arg(client)
            .arg("--expected-failures")
            .arg(baseline)
            .arg("-o")
            .arg(outputs.results);
        if let Some(version) = self.spec_version {
            cmd.args(["--spec-version", version]);
        }
        cmd.stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log);
        let mut child = cmd
            .spawn()
            .with_context(|| format!("could not start {}", step::show(&cmd)))?;
        step::wait_within(&mut child, SUITE_LIMIT)
    }
}
