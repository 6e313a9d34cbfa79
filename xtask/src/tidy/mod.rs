//! `cargo xtask tidy`: the house rules that a program can check, in about a second.
//!
//! Every tracked Rust file opens with a `//!` line ([`file_docs`]) and has at most 600 lines
//! ([`file_length`]); every dependency of a workspace member is pinned once in the root's
//! `[workspace.dependencies]` ([`workspace_deps`]); each crate depends only on the
//! `toolport*` crates that the layering table of `docs/architecture.md` allows ([`layering`]);
//! every crate that may be published has a `README.md` ([`readme`]); and the paths and test names that `README.md` and `docs/` cite exist
//! ([`doc_references`]).
//!
//! Each check works on text already read, so its unit tests feed it small inputs; [`check`]
//! reads the real repository ([`repo`]) and runs them all. The same run is a `#[test]`, so
//! `cargo nextest run --workspace` fails on an untidy tree as well.

mod doc_references;
mod file_docs;
mod file_length;
mod layering;
mod layers;
mod manifest;
mod readme;
mod repo;
mod workspace_deps;

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use self::manifest::Manifest;
use crate::workspace;

/// A file that tidy reads: its path relative to the workspace root, and its text.
#[derive(Debug)]
pub(crate) struct TextFile {
    /// Where it is, relative to the workspace root.
    pub(crate) path: PathBuf,
    /// What it holds.
    pub(crate) text: String,
}

/// One broken rule, and where.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Violation {
    /// The file, relative to the workspace root.
    pub(crate) file: PathBuf,
    /// The 1-based line, when the rule is broken on one line.
    pub(crate) line: Option<usize>,
    /// What is wrong, and what to do about it.
    pub(crate) message: String,
}

impl Violation {
    /// A violation in `file`, on `line` when it has one.
    pub(crate) fn new(file: &Path, line: Option<usize>, message: impl Into<String>) -> Self {
        Self {
            file: file.to_path_buf(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Runs every check on the repository and fails with the list of violations.
pub(crate) fn run() -> Result<()> {
    let violations = check(&workspace::root())?;
    if !violations.is_empty() {
        let list: Vec<String> = violations.iter().map(Violation::to_string).collect();
        bail!(
            "tidy: {} violation(s):\n  {}",
            violations.len(),
            list.join("\n  ")
        );
    }
    println!("tidy: ok");
    Ok(())
}

/// Every violation in the repository at `root`, sorted by file and line.
///
/// Fails only when the repository cannot be read: git or cargo does not answer, a file is
/// unreadable, or a manifest is not TOML.
fn check(root: &Path) -> Result<Vec<Violation>> {
    let mut violations = Vec::new();
    let rust = repo::tracked_rust_files(root)?;
    for file in &rust {
        violations.extend(file_docs::check(file));
        violations.extend(file_length::check(file));
    }
    let paths = repo::tracked_paths(root)?;
    let known = doc_references::Known::new(paths.iter().map(PathBuf::as_path), &rust);
    let docs = paths.iter().filter(|path| {
        *path == Path::new("README.md")
            || (path.starts_with("docs") && path.extension().is_some_and(|ext| ext == "md"))
    });
    for doc in docs {
        violations.extend(doc_references::check(&repo::read(root, doc)?, &known));
    }
    let renames = manifest::workspace_renames(&repo::read(root, Path::new("Cargo.toml"))?.text)?;
    let members = repo::member_manifests(root)?
        .iter()
        .map(|file| Manifest::parse(file, &renames))
        .collect::<Result<Vec<_>>>()?;
    for member in &members {
        violations.extend(workspace_deps::check(member));
        violations.extend(readme::check(member, &paths));
    }
    let architecture = repo::read(root, Path::new(layers::DOC))?;
    violations.extend(layering::check(&architecture.text, &members));
    violations.sort();
    Ok(violations)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repository itself keeps the rules, so `cargo nextest run` fails when it does not.
    #[test]
    fn the_repository_is_tidy() {
        let violations = check(&workspace::root()).unwrap();
        let list: Vec<String> = violations.iter().map(Violation::to_string).collect();
        assert!(violations.is_empty(), "tidy:\n  {}", list.join("\n  "));
    }

    #[test]
    fn a_violation_names_its_file_and_line() {
        let at_line = Violation::new(Path::new("src/a.rs"), Some(3), "too long");
        assert_eq!(at_line.to_string(), "src/a.rs:3: too long");
        let whole_file = Violation::new(Path::new("docs/x.md"), None, "no table");
        assert_eq!(whole_file.to_string(), "docs/x.md: no table");
    }
}
