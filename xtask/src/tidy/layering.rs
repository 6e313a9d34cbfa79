//! Tidy check: dependencies point down. Each crate's normal `[dependencies]` (target-specific
//! ones included) name only the `toolport*` crates that its row of the layering table in
//! `docs/architecture.md` allows; dev-dependencies are free.
//!
//! Every workspace crate whose name starts with `toolport` must have a row, and every crate the
//! table names must be in the workspace. A crate with another name (an example, `xtask`) is
//! held to a row when it has one.

use std::collections::BTreeSet;
use std::path::Path;

use super::Violation;
use super::layers::{DOC, Layers};
use super::manifest::{Kind, Manifest};

/// The prefix of the crates the layering rule is about.
const PREFIX: &str = "toolport";

/// Every violation of the layering table in the document `doc` by the workspace's `members`.
pub(super) fn check(doc: &str, members: &[Manifest]) -> Vec<Violation> {
    let layers = match Layers::parse(doc) {
        Ok(layers) => layers,
        Err(problems) => return problems,
    };
    let doc = Path::new(DOC);
    let in_workspace: BTreeSet<&str> = members.iter().map(|m| m.package.as_str()).collect();
    let mut violations = Vec::new();

    for (name, row) in &layers.rows {
        let named = std::iter::once(name).chain(&row.allowed);
        for unknown in named.filter(|named| !in_workspace.contains(named.as_str())) {
            violations.push(Violation::new(
                doc,
                Some(row.line),
                format!("the layering table names `{unknown}`, which is not a workspace crate"),
            ));
        }
    }

    for member in members {
        let Some(row) = layers.rows.get(&member.package) else {
            if member.package.starts_with(PREFIX) {
                violations.push(Violation::new(
                    doc,
                    Some(layers.heading_line),
                    format!(
                        "`{}` ({}) has no row in the layering table",
                        member.package,
                        member.path.display()
                    ),
                ));
            }
            continue;
        };
        let forbidden = member.dependencies.iter().filter(|dependency| {
            dependency.kind == Kind::Normal
                && dependency.package.starts_with(PREFIX)
                && !row.allowed.contains(&dependency.package)
        });
        for dependency in forbidden {
            let allowed: Vec<String> = row.allowed.iter().map(|a| format!("`{a}`")).collect();
            violations.push(Violation::new(
                &member.path,
                Some(dependency.line),
                format!(
                    "`{}` depends on `{}`, which the layering table in {DOC} does not allow \
                     (it allows {})",
                    member.package,
                    dependency.package,
                    if allowed.is_empty() {
                        "none".to_owned()
                    } else {
                        allowed.join(", ")
                    }
                ),
            ));
        }
    }
    violations
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use super::*;
    use crate::tidy::TextFile;

    /// A document holding the layering table with `rows`.
    fn doc(rows: &str) -> String {
        format!("# A\n\n## Layering\n\n| crate | may depend on |\n|---|---|\n{rows}\n")
    }

    /// A member `name` whose manifest adds `tables` after `[package]`.
    fn member(name: &str, tables: &str) -> Manifest {
        let file = TextFile {
            path: PathBuf::from(format!("crates/{name}/Cargo.toml")),
            text: format!("[package]\nname = \"{name}\"\n{tables}"),
        };
        Manifest::parse(&file, &BTreeMap::new()).unwrap()
    }

    fn messages(violations: &[Violation]) -> Vec<String> {
        violations.iter().map(Violation::to_string).collect()
    }

    /// The table of the examples below: core at the bottom, http on core.
    const ROWS: &str = "| `toolport-core` | — |\n| `toolport-http` | `toolport-core` |";

    #[test]
    fn allowed_and_dev_and_other_dependencies_pass() {
        let members = [
            member(
                "toolport-core",
                "[dev-dependencies]\ntoolport-http.workspace = true\n",
            ),
            member(
                "toolport-http",
                "[dependencies]\ntoolport-core.workspace = true\nhyper.workspace = true\n\
                 [build-dependencies]\ntoolport-http.workspace = true\n",
            ),
            // Not a `toolport*` crate and not in the table: free.
            member(
                "tasks-agent",
                "[dependencies]\ntoolport-http.workspace = true\n",
            ),
        ];
        assert_eq!(messages(&check(&doc(ROWS), &members)), Vec::<String>::new());
    }

    #[test]
    fn a_dependency_the_row_does_not_allow_is_reported_on_its_line() {
        let members = [
            member(
                "toolport-core",
                "[target.'cfg(unix)'.dependencies]\ntoolport-http.workspace = true\n",
            ),
            member(
                "toolport-http",
                "[dependencies]\ntoolport-core.workspace = true\n",
            ),
        ];
        assert_eq!(
            messages(&check(&doc(ROWS), &members)),
            [
                "crates/toolport-core/Cargo.toml:4: `toolport-core` depends on `toolport-http`, \
              which the layering table in docs/architecture.md does not allow (it allows none)"
            ]
        );
    }

    #[test]
    fn a_crate_without_a_row_and_a_row_without_a_crate_are_reported() {
        let members = [
            member("toolport-core", ""),
            member(
                "toolport-new",
                "[dependencies]\ntoolport-core.workspace = true\n",
            ),
        ];
        let rows = "| `toolport-core` | — |\n| `toolport-gone` | `toolport-core`, `toolport-old` |";
        assert_eq!(
            messages(&check(&doc(rows), &members)),
            [
                "docs/architecture.md:8: the layering table names `toolport-gone`, which is not \
                 a workspace crate",
                "docs/architecture.md:8: the layering table names `toolport-old`, which is not \
                 a workspace crate",
                "docs/architecture.md:3: `toolport-new` (crates/toolport-new/Cargo.toml) has no \
                 row in the layering table",
            ]
        );
    }

    #[test]
    fn a_malformed_table_is_reported_instead() {
        let members = [member("toolport-core", "")];
        let violations = check(&doc("| toolport-core | — |"), &members);
        assert_eq!(violations.len(), 1);
        assert_eq!(violations[0].line, Some(7));
    }
}
