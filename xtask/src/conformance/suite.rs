//! The suite runs `cargo xtask conformance` makes, across two releases of the suite, and one
//! run of the suite's `client` command.

use std::fs::{self, File};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use anyhow::{Context as _, Result};

use super::baseline::BaselineFile;
use crate::peers::Peers;
use crate::step;

/// The release of the suite that runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Release {
    /// 0.1.16: its `all` suite at 2025-11-25, kept beside the next one.
    Stable,
    /// 0.2.0-alpha.12: both spec versions, and the 2026-07-28 client scenarios.
    Next,
}

/// One run of a suite of client scenarios.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Suite {
    /// How the table and the messages name the run, unique among [`SUITES`].
    pub(crate) label: &'static str,
    release: Release,
    /// The suite's name, as `--suite` takes it.
    name: &'static str,
    /// The `--spec-version` filter. Only `all` takes one: the suite matches the other suites'
    /// scenarios against their own versions, so a date would leave `backcompat` (2025-03-26),
    /// `extensions` (extension) and `draft` (draft) empty.
    spec_version: Option<&'static str>,
    /// The expected failures this run is held to.
    pub(crate) baseline: BaselineFile,
}

/// Every run, in order.
pub(crate) const SUITES: [Suite; 6] = [
    Suite {
        label: "all",
        release: Release::Stable,
        name: "all",
        spec_version: Some("2025-11-25"),
        baseline: BaselineFile::Current,
    },
    Suite {
        label: "next/all@2025-11-25",
        release: Release::Next,
        name: "all",
        spec_version: Some("2025-11-25"),
        baseline: BaselineFile::Current,
    },
    Suite {
        label: "next/all@2026-07-28",
        release: Release::Next,
        name: "all",
        spec_version: Some("2026-07-28"),
        baseline: BaselineFile::Next,
    },
    Suite {
        label: "next/backcompat",
        release: Release::Next,
        name: "backcompat",
        spec_version: None,
        baseline: BaselineFile::Current,
    },
    Suite {
        label: "next/extensions",
        release: Release::Next,
        name: "extensions",
        spec_version: None,
        baseline: BaselineFile::Current,
    },
    Suite {
        label: "next/draft",
        release: Release::Next,
        name: "draft",
        spec_version: None,
        baseline: BaselineFile::Next,
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
    /// The folder name of this run's results and log: the label with `/` and `@` as `-`.
    pub(crate) fn folder_name(&self) -> String {
        self.label.replace(['/', '@'], "-")
    }

    /// Runs the suite against `client`, with its baseline as the suite's own expected failures.
    /// Returns its exit status, or `None` if it was killed at the time limit.
    pub(crate) fn run(
        &self,
        peers: &Peers,
        client: &Path,
        outputs: &Outputs<'_>,
    ) -> Result<Option<ExitStatus>> {
        if outputs.results.exists() {
            fs::remove_dir_all(outputs.results)
                .with_context(|| format!("clearing {}", outputs.results.display()))?;
        }
        let log = File::create(outputs.log)
            .with_context(|| format!("creating {}", outputs.log.display()))?;
        let script = match self.release {
            Release::Stable => &peers.conformance,
            Release::Next => &peers.conformance_next,
        };
        let mut cmd = Command::new(&peers.node22);
        cmd.arg(script)
            .args(["client", "--suite", self.name, "--command"])
            .arg(client)
            .arg("--expected-failures")
            .arg(self.baseline.path())
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
