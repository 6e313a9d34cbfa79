//! A workspace member's `Cargo.toml` as tidy sees it: the package's name and every dependency
//! entry, with the table it sits in, the crate it names and its line.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context as _, Result, anyhow};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::TextFile;

/// Which kind of dependency table an entry sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `[dependencies]`: what the crate's own code uses.
    Normal,
    /// `[dev-dependencies]`: for its tests, examples and benches only.
    Dev,
    /// `[build-dependencies]`: for its build script.
    Build,
}

/// The dependency tables, by name. Each may also appear under `[target.<cfg>]`.
const TABLES: [(&str, Kind); 3] = [
    ("dependencies", Kind::Normal),
    ("dev-dependencies", Kind::Dev),
    ("build-dependencies", Kind::Build),
];

/// One dependency entry of a manifest.
#[derive(Debug)]
pub(super) struct Dependency {
    /// The key it is written under: the name the code uses.
    pub(super) key: String,
    /// The crate it names: the `package` it renames, or else the key.
    pub(super) package: String,
    /// The kind of table it sits in.
    pub(super) kind: Kind,
    /// That table as written, such as `dependencies` or `target.'cfg(unix)'.dependencies`.
    pub(super) table: String,
    /// Whether it inherits from `[workspace.dependencies]` (`workspace = true`).
    pub(super) inherited: bool,
    /// The 1-based line of its key.
    pub(super) line: usize,
}

/// A member's manifest, parsed.
#[derive(Debug)]
pub(super) struct Manifest {
    /// The manifest's path, relative to the workspace root.
    pub(super) path: PathBuf,
    /// `[package] name`.
    pub(super) package: String,
    /// Whether it may be published: `[package] publish` is not `false`.
    pub(super) published: bool,
    /// Every entry of every dependency table, in the order of the tables.
    pub(super) dependencies: Vec<Dependency>,
}

impl Manifest {
    /// Parses `file`. `renames` maps each `[workspace.dependencies]` key that renames a crate to
    /// that crate, so an inherited entry names the right one.
    pub(super) fn parse(file: &TextFile, renames: &BTreeMap<String, String>) -> Result<Self> {
        let context = || format!("reading {}", file.path.display());
        let document = parse_toml(&file.text).with_context(context)?;
        let package = document
            .get("package")
            .and_then(|package| package.get_ref().get("name"))
            .and_then(|name| name.get_ref().as_str())
            .ok_or_else(|| anyhow!("no `[package] name`"))
            .with_context(context)?
            .to_owned();
        let published = document
            .get("package")
            .and_then(|package| package.get_ref().get("publish"))
            .and_then(|publish| publish.get_ref().as_bool())
            != Some(false);

        let dependencies = dependency_tables(&document)
            .into_iter()
            .flat_map(|(table, kind, entries)| {
                entries.iter().map(move |(key, value)| {
                    let workspace = value.get_ref().get("workspace");
                    let inherited = workspace.and_then(|w| w.get_ref().as_bool()) == Some(true);
                    let key_name = key.get_ref().to_string();
                    let package = if inherited {
                        renames.get(&key_name).cloned()
                    } else {
                        value.get_ref().get("package").and_then(as_string)
                    };
                    Dependency {
                        package: package.unwrap_or_else(|| key_name.clone()),
                        key: key_name,
                        kind,
                        table: table.clone(),
                        inherited,
                        line: line_of(&file.text, key.span().start),
                    }
                })
            })
            .collect();
        Ok(Self {
            path: file.path.clone(),
            package,
            published,
            dependencies,
        })
    }
}

/// Every dependency table of `document`, top-level and under `[target.<cfg>]`, with its name
/// as written and its kind.
fn dependency_tables<'a, 'i>(document: &'a DeTable<'i>) -> Vec<(String, Kind, &'a DeTable<'i>)> {
    let targets = document.get("target").and_then(|t| t.get_ref().as_table());
    let per_target = targets.into_iter().flatten().filter_map(|(cfg, target)| {
        let prefix = format!("target.'{}'.", cfg.get_ref());
        Some((prefix, target.get_ref().as_table()?))
    });
    let mut tables = Vec::new();
    for (prefix, scope) in std::iter::once((String::new(), document)).chain(per_target) {
        for (name, kind) in TABLES {
            if let Some(table) = scope.get(name).and_then(|t| t.get_ref().as_table()) {
                tables.push((format!("{prefix}{name}"), kind, table));
            }
        }
    }
    tables
}

/// The `[workspace.dependencies]` keys of the root manifest `text` that rename a crate
/// (`key = { package = "crate", ... }`), mapped to that crate.
pub(super) fn workspace_renames(text: &str) -> Result<BTreeMap<String, String>> {
    let document = parse_toml(text).context("reading the root Cargo.toml")?;
    let entries = document
        .get("workspace")
        .and_then(|workspace| workspace.get_ref().get("dependencies"))
        .and_then(|deps| deps.get_ref().as_table());
    Ok(entries
        .into_iter()
        .flatten()
        .filter_map(|(key, value)| {
            let package = value.get_ref().get("package").and_then(as_string)?;
            Some((key.get_ref().to_string(), package))
        })
        .collect())
}

/// Parses a TOML document, keeping the spans of its keys and values.
fn parse_toml(text: &str) -> Result<DeTable<'_>> {
    DeTable::parse(text)
        .map(Spanned::into_inner)
        .map_err(|error| match error.span() {
            Some(span) => anyhow!("line {}: {}", line_of(text, span.start), error.message()),
            None => anyhow!("{}", error.message()),
        })
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// A TOML string's value, owned.
fn as_string(value: &Spanned<DeValue<'_>>) -> Option<String> {
    value.get_ref().as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, renames: &[(&str, &str)]) -> Manifest {
        let file = TextFile {
            path: PathBuf::from("crates/a/Cargo.toml"),
            text: text.to_owned(),
        };
        let renames = renames
            .iter()
            .map(|&(key, package)| (key.to_owned(), package.to_owned()))
            .collect();
        Manifest::parse(&file, &renames).unwrap()
    }

    #[test]
    fn reads_every_dependency_table_with_its_kind_line_and_crate() {
        let manifest = parse(
            "[package]\nname = \"a\"\n\n\
             [dependencies]\nb.workspace = true\nc = { workspace = true, features = [\"x\"] }\n\
             d = \"1.0\"\n\n\
             [dev-dependencies]\ne = { path = \"../e\", package = \"real-e\" }\n\n\
             [build-dependencies.f]\nversion = \"2\"\n\n\
             [target.'cfg(unix)'.dependencies]\ng.workspace = true\n",
            &[("c", "real-c")],
        );
        assert_eq!(manifest.package, "a");
        let seen: Vec<(&str, &str, Kind, &str, bool, usize)> = manifest
            .dependencies
            .iter()
            .map(|d| {
                let (key, package, table) = (d.key.as_str(), d.package.as_str(), d.table.as_str());
                (key, package, d.kind, table, d.inherited, d.line)
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("b", "b", Kind::Normal, "dependencies", true, 5),
                ("c", "real-c", Kind::Normal, "dependencies", true, 6),
                ("d", "d", Kind::Normal, "dependencies", false, 7),
                ("e", "real-e", Kind::Dev, "dev-dependencies", false, 10),
                ("f", "f", Kind::Build, "build-dependencies", false, 12),
                (
                    "g",
                    "g",
                    Kind::Normal,
                    "target.'cfg(unix)'.dependencies",
                    true,
                    16
                ),
            ]
        );
    }

    #[test]
    fn finds_the_workspace_renames() {
        let renames = workspace_renames(
            "[workspace.dependencies]\na = \"1\"\nb = { version = \"1\", package = \"real-b\" }\n",
        )
        .unwrap();
        assert_eq!(
            renames.into_iter().collect::<Vec<_>>(),
            [("b".to_owned(), "real-b".to_owned())]
        );
    }

    #[test]
    fn a_manifest_that_is_not_toml_is_an_error_with_its_line() {
        let file = TextFile {
            path: PathBuf::from("Cargo.toml"),
            text: "[package]\nname = \"a\"\n[dependencies\n".to_owned(),
        };
        let error = format!(
            "{:#}",
            Manifest::parse(&file, &BTreeMap::new()).unwrap_err()
        );
        assert!(error.contains("line 3"), "{error}");
    }
}
