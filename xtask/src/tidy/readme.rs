//! Tidy check: every crate that may be published has a `README.md` beside its manifest, which
//! cargo packages and crates.io shows as the crate's page.

use std::path::{Path, PathBuf};

use super::Violation;
use super::manifest::Manifest;

/// A violation when `manifest` may be published and no tracked path of `tracked` is the
/// `README.md` of its folder.
pub(super) fn check(manifest: &Manifest, tracked: &[PathBuf]) -> Vec<Violation> {
    if !manifest.published {
        return Vec::new();
    }
    let folder = manifest.path.parent().unwrap_or(Path::new(""));
    let readme = folder.join("README.md");
    if tracked.contains(&readme) {
        return Vec::new();
    }
    vec![Violation::new(
        &manifest.path,
        None,
        format!(
            "`{}` may be published but has no {}: write one (crates.io shows it), or set \
             `publish = false`",
            manifest.package,
            readme.display()
        ),
    )]
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::tidy::TextFile;

    fn manifest(publish: &str) -> Manifest {
        let file = TextFile {
            path: PathBuf::from("crates/a/Cargo.toml"),
            text: format!("[package]\nname = \"a\"\n{publish}"),
        };
        Manifest::parse(&file, &BTreeMap::new()).unwrap()
    }

    #[test]
    fn a_published_crate_needs_a_readme_beside_its_manifest() {
        let tracked = [PathBuf::from("crates/b/README.md")];
        let violations = check(&manifest(""), &tracked);
        assert_eq!(violations.len(), 1);
        assert!(violations[0].message.contains("crates/a/README.md"));

        let tracked = [PathBuf::from("crates/a/README.md")];
        assert_eq!(check(&manifest(""), &tracked), []);
    }

    #[test]
    fn an_unpublished_crate_needs_none() {
        assert_eq!(check(&manifest("publish = false\n"), &[]), []);
    }
}
