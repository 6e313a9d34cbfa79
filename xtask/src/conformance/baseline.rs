//! The committed expected-failures files ([`BaselineFile`]), and what each says about a
//! scenario.
//!
//! The file is the suite's own `--expected-failures` format (`client:` then a list of scenario
//! names), restricted so that it can be read without a YAML library and must give a reason for
//! each entry: one `- <scenario>  # <reason>` per line.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

use crate::workspace;

/// The expected failures, scenario name → reason.
#[derive(Debug, Default)]
pub(crate) struct Baseline {
    entries: BTreeMap<String, String>,
}

/// How one scenario's result compares with the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// It passed, and is not listed.
    Pass,
    /// It failed, and is listed.
    ExpectedFailure,
    /// It failed, and is not listed: the run fails.
    UnexpectedFailure,
    /// It passed, but is listed: the entry is stale and the run fails.
    Stale,
}

impl Verdict {
    /// Whether this verdict fails the run.
    pub(crate) fn is_problem(self) -> bool {
        matches!(self, Self::UnexpectedFailure | Self::Stale)
    }

    /// The word the table shows.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::ExpectedFailure => "fail (expected)",
            Self::UnexpectedFailure => "FAIL (not in the baseline)",
            Self::Stale => "PASS (stale baseline entry)",
        }
    }
}

/// The committed expected-failures files: each suite run is held to one of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum BaselineFile {
    /// `conformance/expected-failures.yml`: the runs at the 2025-11-25 wire and older.
    Current,
    /// `conformance/expected-failures-2026-07-28.yml`: the runs at the 2026-07-28 wire (and
    /// the draft suite, which is ahead of it).
    Next,
}

impl BaselineFile {
    /// Both files.
    pub(crate) const ALL: [BaselineFile; 2] = [BaselineFile::Current, BaselineFile::Next];

    /// Where the file lives.
    pub(crate) fn path(self) -> PathBuf {
        let name = match self {
            Self::Current => "expected-failures.yml",
            Self::Next => "expected-failures-2026-07-28.yml",
        };
        workspace::root().join("conformance").join(name)
    }
}

impl Baseline {
    /// Reads and checks the file at `path`.
    pub(crate) fn load(path: &Path) -> Result<Self> {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Self::parse(&text).with_context(|| format!("in {}", path.display()))
    }

    /// Parses the restricted format; see the module docs.
    fn parse(text: &str) -> Result<Self> {
        let mut entries = BTreeMap::new();
        let mut in_client = false;
        for (number, line) in text.lines().enumerate().map(|(i, line)| (i + 1, line)) {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if !line.starts_with(' ') {
                in_client = trimmed == "client:";
                if !in_client {
                    bail!("line {number}: only a `client:` list is expected, found `{trimmed}`");
                }
                continue;
            }
            let Some(entry) = trimmed.strip_prefix("- ").filter(|_| in_client) else {
                bail!("line {number}: expected `- <scenario>  # <reason>`, found `{trimmed}`");
            };
            let (scenario, reason) = entry.split_once('#').unwrap_or((entry, ""));
            let (scenario, reason) = (scenario.trim(), reason.trim());
            if scenario.is_empty() || reason.is_empty() {
                bail!("line {number}: `{trimmed}` needs a scenario and a `# reason`");
            }
            if entries
                .insert(scenario.to_owned(), reason.to_owned())
                .is_some()
            {
                bail!("line {number}: `{scenario}` is listed twice");
            }
        }
        Ok(Self { entries })
    }

    /// The verdict for `scenario`, given whether it passed.
    pub(crate) fn verdict(&self, scenario: &str, passed: bool) -> Verdict {
        match (passed, self.entries.contains_key(scenario)) {
            (true, false) => Verdict::Pass,
            (false, true) => Verdict::ExpectedFailure,
            (false, false) => Verdict::UnexpectedFailure,
            (true, true) => Verdict::Stale,
        }
    }

    /// The listed scenarios that are not in `ran`: misspelt, or dropped from the suite.
    pub(crate) fn not_run<'a>(&'a self, ran: &[&str]) -> Vec<&'a str> {
        self.entries
            .keys()
            .map(String::as_str)
            .filter(|scenario| !ran.contains(scenario))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_with_reasons_and_judges_strictly() {
        let baseline = Baseline::parse(
            "# comment\nclient:\n  # a note\n  - auth/a  # no OAuth yet\n\n  - auth/b # same\n",
        )
        .unwrap();
        assert_eq!(baseline.entries.len(), 2);
        assert_eq!(baseline.verdict("auth/a", false), Verdict::ExpectedFailure);
        assert_eq!(baseline.verdict("auth/a", true), Verdict::Stale);
        assert_eq!(baseline.verdict("initialize", true), Verdict::Pass);
        assert_eq!(
            baseline.verdict("initialize", false),
            Verdict::UnexpectedFailure
        );
        assert_eq!(baseline.not_run(&["auth/a"]), ["auth/b"]);
    }

    #[test]
    fn refuses_entries_without_a_reason_and_other_keys() {
        assert!(Baseline::parse("client:\n  - auth/a\n").is_err());
        assert!(Baseline::parse("client:\n  - auth/a  #  \n").is_err());
        assert!(Baseline::parse("server:\n  - x  # y\n").is_err());
        assert!(Baseline::parse("client:\n  - a  # r\n  - a  # r\n").is_err());
    }

    /// Guards the committed files: they parse, and list only `auth/*` scenarios (the OAuth
    /// extension grants still to come), so nothing else can quietly be excused.
    #[test]
    fn the_committed_baselines_list_only_oauth_scenarios() {
        for file in BaselineFile::ALL {
            let baseline = Baseline::load(&file.path()).unwrap();
            for (scenario, reason) in &baseline.entries {
                assert!(
                    scenario.starts_with("auth/"),
                    "{scenario} is listed in {} ({reason})",
                    file.path().display()
                );
            }
        }
    }
}
