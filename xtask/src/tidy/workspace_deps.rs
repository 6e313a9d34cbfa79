//! Tidy check: every dependency of a workspace member is pinned once, in the root's
//! `[workspace.dependencies]`, and the member writes `name.workspace = true` (or
//! `name = { workspace = true, ... }` to add features or make it optional).

use super::Violation;
use super::manifest::Manifest;

/// One violation per entry of `manifest` that does not inherit from the workspace.
pub(super) fn check(manifest: &Manifest) -> Vec<Violation> {
    manifest
        .dependencies
        .iter()
        .filter(|dependency| !dependency.inherited)
        .map(|dependency| {
            let key = &dependency.key;
            Violation::new(
                &manifest.path,
                Some(dependency.line),
                format!(
                    "`{key}` in [{}] is not taken from [workspace.dependencies]: pin it in the \
                     root Cargo.toml and write `{key}.workspace = true` here",
                    dependency.table
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use super::*;
    use crate::tidy::TextFile;

    fn check_text(text: &str) -> Vec<Violation> {
        let file = TextFile {
            path: PathBuf::from("crates/a/Cargo.toml"),
            text: format!("[package]\nname = \"a\"\n{text}"),
        };
        check(&Manifest::parse(&file, &BTreeMap::new()).unwrap())
    }

    #[test]
    fn inherited_dependencies_pass() {
        let clean = "[dependencies]\nb.workspace = true\n\
                     c = { workspace = true, optional = true }\n\
                     [dev-dependencies.d]\nworkspace = true\nfeatures = [\"x\"]\n\
                     [target.'cfg(unix)'.build-dependencies]\ne.workspace = true\n";
        assert_eq!(check_text(clean), []);
    }

    #[test]
    fn every_entry_pinned_in_the_member_is_reported_on_its_line() {
        let violations = check_text(
            "[dependencies]\nb = \"1\"\nc = { path = \"../c\" }\nd.workspace = false\n\
             [target.'cfg(windows)'.dev-dependencies]\ne = { version = \"2\" }\n",
        );
        let lines: Vec<Option<usize>> = violations.iter().map(|v| v.line).collect();
        assert_eq!(lines, [Some(4), Some(5), Some(6), Some(8)]);
        assert!(
            violations[3]
                .message
                .contains("`e` in [target.'cfg(windows)'.dev-dependencies]")
        );
        assert!(violations[0].message.contains("`b.workspace = true`"));
    }
}
