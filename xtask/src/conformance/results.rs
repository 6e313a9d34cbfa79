//! The results the suite writes with `-o`: one folder per scenario, holding `checks.json`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde_json::Value;

/// One scenario's checks, as the suite recorded them.
#[derive(Debug)]
pub(crate) struct ScenarioResult {
    /// The scenario's name, such as `auth/metadata-default`.
    pub(crate) scenario: String,
    /// Checks with status `SUCCESS`.
    pub(crate) passed: usize,
    /// Checks that judge the client: `SUCCESS`, `FAILURE` and `WARNING` (not `INFO`).
    pub(crate) judged: usize,
    /// The first check that did not succeed, for messages.
    pub(crate) first_problem: Option<String>,
    /// The folder with the scenario's `checks.json`, `stdout.txt` and `stderr.txt`.
    pub(crate) folder: PathBuf,
}

impl ScenarioResult {
    /// Passed, as the suite counts it (no failure or warning), and checked at all.
    pub(crate) fn passed(&self) -> bool {
        self.judged > 0 && self.passed == self.judged
    }
}

/// Every scenario result under `dir`, which holds the output of one suite run, sorted by
/// scenario.
pub(crate) fn read(dir: &Path) -> Result<Vec<ScenarioResult>> {
    let mut folders = Vec::new();
    find_checks(dir, &mut folders)?;
    let mut results = folders
        .into_iter()
        .map(|folder| read_one(dir, folder))
        .collect::<Result<Vec<_>>>()?;
    results.sort_by(|a, b| a.scenario.cmp(&b.scenario));
    Ok(results)
}

/// Collects every folder under `dir` that holds a `checks.json`.
fn find_checks(dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
    if dir.join("checks.json").is_file() {
        found.push(dir.to_path_buf());
        return Ok(());
    }
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            find_checks(&path, found)?;
        }
    }
    Ok(())
}

fn read_one(root: &Path, folder: PathBuf) -> Result<ScenarioResult> {
    let file = folder.join("checks.json");
    let checks: Vec<Value> = serde_json::from_slice(
        &fs::read(&file).with_context(|| format!("reading {}", file.display()))?,
    )
    .with_context(|| format!("parsing {}", file.display()))?;
    let relative = folder.strip_prefix(root).unwrap_or(&folder);
    let folder_name = relative.to_string_lossy().replace('\\', "/");
    let status = |check: &Value| check["status"].as_str().unwrap_or_default().to_owned();
    let judged: Vec<&Value> = checks
        .iter()
        .filter(|check| ["SUCCESS", "FAILURE", "WARNING"].contains(&status(check).as_str()))
        .collect();
    let first_problem = judged
        .iter()
        .find(|check| status(check) != "SUCCESS")
        .map(|check| {
            let message = check["errorMessage"]
                .as_str()
                .or(check["description"].as_str())
                .unwrap_or_default();
            format!(
                "{} {}: {message}",
                status(check),
                check["id"].as_str().unwrap_or("?")
            )
        });
    Ok(ScenarioResult {
        scenario: scenario_name(&folder_name).to_owned(),
        passed: judged.iter().filter(|c| status(c) == "SUCCESS").count(),
        judged: judged.len(),
        first_problem,
        folder,
    })
}

/// The scenario of a result folder: the suite names it `<scenario>-<ISO time with - for : and .>`,
/// such as `auth/metadata-default-2026-01-02T03-04-05-678Z`.
fn scenario_name(folder: &str) -> &str {
    const STAMP: usize = "-2026-01-02T03-04-05-678Z".len();
    match folder.len().checked_sub(STAMP) {
        Some(cut)
            if folder.is_char_boundary(cut)
                && folder[cut..].starts_with('-')
                && folder.ends_with('Z')
                && folder[cut..].chars().nth(11) == Some('T') =>
        {
            &folder[..cut]
        }
        _ => folder,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_the_time_stamp_from_a_result_folder() {
        assert_eq!(
            scenario_name("auth/metadata-default-2026-11-30T16-27-19-890Z"),
            "auth/metadata-default"
        );
        assert_eq!(
            scenario_name("sse-retry-2026-11-30T16-27-19-890Z"),
            "sse-retry"
        );
        assert_eq!(scenario_name("initialize"), "initialize");
    }
}
