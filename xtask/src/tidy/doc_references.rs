//! Tidy check: what the docs name in backticks exists. A file's path that starts at one of the
//! repository's top-level folders (`crates/…`, `docs/…`, `tests/…`) names a tracked file:
//! that one, or one whose path ends with it, as docs write a crate's own `tests/…`; and a
//! test's name (a backticked snake_case name of seven words or more, as the docs' guard
//! tables cite tests) names a function some tracked Rust file defines.

use std::collections::BTreeSet;
use std::path::Path;

use super::{TextFile, Violation};

/// The top-level folders a path in the docs starts at.
const TOP_LEVEL: [&str; 10] = [
    "crates/",
    "docs/",
    "tests/",
    "examples/",
    "xtask/",
    "bench/",
    "fuzz/",
    "conformance/",
    "reliability/",
    ".ci/",
];

/// The fewest underscores in a backticked name taken for a test's name: shorter snake_case
/// names in the docs are as often fields, metadata or scenarios.
const MIN_TEST_NAME_UNDERSCORES: usize = 6;

/// What the repository holds that a doc may name.
#[derive(Debug, Default)]
pub(super) struct Known {
    /// Every tracked file's path, with `/` separators.
    pub(super) paths: BTreeSet<String>,
    /// Every function name a tracked Rust file defines (`fn name`).
    pub(super) functions: BTreeSet<String>,
}

impl Known {
    /// What `files` (the tracked files, by path) and `rust` (the tracked Rust files, read) hold.
    pub(super) fn new<'a>(files: impl IntoIterator<Item = &'a Path>, rust: &[TextFile]) -> Self {
        let mut known = Self::default();
        for file in files {
            known
                .paths
                .insert(file.to_string_lossy().replace('\\', "/"));
        }
        for file in rust {
            known.functions.extend(function_names(&file.text));
        }
        known
    }

    /// Whether `path` is a tracked file, or the end of one's path.
    fn holds_path(&self, path: &str) -> bool {
        self.paths.contains(path)
            || self.paths.iter().any(|known| {
                known.ends_with(path) && known[..known.len() - path.len()].ends_with('/')
            })
    }
}

/// A violation for each backticked path or test name in `doc` that `known` does not hold.
pub(super) fn check(doc: &TextFile, known: &Known) -> Vec<Violation> {
    let mut violations = Vec::new();
    for (index, line) in doc.text.lines().enumerate() {
        for span in backticked(line) {
            let message = if is_file_path(span) {
                (!known.holds_path(span))
                    .then(|| format!("`{span}` names no tracked file; correct or remove it"))
            } else if is_test_name(span) {
                (!known.functions.contains(span)).then(|| {
                    format!("`{span}` names no function of a tracked Rust file; name the test that guards this")
                })
            } else {
                None
            };
            violations
                .extend(message.map(|message| Violation::new(&doc.path, Some(index + 1), message)));
        }
    }
    violations
}

/// The spans between pairs of single backticks on `line`.
fn backticked(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

/// Whether `span` is a file's path at a top-level folder (its last part has an extension),
/// with nothing in it that stands for a part (`{id}`, `<n>`, `*`, `…`) and no space.
fn is_file_path(span: &str) -> bool {
    let last = span.rsplit('/').next().unwrap_or_default();
    TOP_LEVEL.iter().any(|top| span.starts_with(top))
        && last.contains('.')
        && !span.contains([' ', '{', '<', '*', '…', ':', '$'])
}

/// Whether `span` reads as a test's name: lower-case snake_case of seven words or more.
fn is_test_name(span: &str) -> bool {
    span.matches('_').count() >= MIN_TEST_NAME_UNDERSCORES
        && !span.contains("__")
        && span.starts_with(|c: char| c.is_ascii_lowercase())
        && span
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The names after `fn ` in `text`.
fn function_names(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split("fn ").skip(1).filter_map(|rest| {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn text_file(path: &str, text: &str) -> TextFile {
        TextFile {
            path: PathBuf::from(path),
            text: text.to_owned(),
        }
    }

    fn known() -> Known {
        let rust = [text_file(
            "crates/a/tests/b.rs",
            "#[test]\nfn a_call_lost_mid_flight_is_not_replayed() {}\n",
        )];
        let files = [Path::new("crates/a/tests/b.rs"), Path::new("docs/x.md")];
        Known::new(files, &rust)
    }

    #[test]
    fn named_paths_and_tests_that_exist_pass() {
        let doc = text_file(
            "docs/x.md",
            "See `crates/a/tests/b.rs`, `tests/b.rs` (the crate's) and `a_call_lost_mid_flight_is_not_replayed`;\n\
             `is_timeout`, `dpop_bound_access_tokens_required`, `evil__github__create_issue_now_or_later`,\n\
             `crates/a/`, `fuzz/coverage/`, `crates/{id}/x.rs` and `toolport call x` are not checked.\n",
        );
        assert_eq!(check(&doc, &known()), []);
    }

    #[test]
    fn a_missing_path_or_test_is_reported_on_its_line() {
        let doc = text_file(
            "docs/x.md",
            "Fine.\nSee `crates/a/tests/gone.rs`.\nGuarded by `a_test_that_was_renamed_long_ago_and_lost`.\n",
        );
        let violations = check(&doc, &known());
        let lines: Vec<Option<usize>> = violations.iter().map(|v| v.line).collect();
        assert_eq!(lines, [Some(2), Some(3)]);
        assert!(violations[0].message.contains("crates/a/tests/gone.rs"));
        assert!(
            violations[1]
                .message
                .contains("a_test_that_was_renamed_long_ago_and_lost")
        );
    }
}
