//! Tidy check: every Rust file starts with a `//!` line saying what it is for.

use super::{TextFile, Violation};

/// A violation when `file` does not start with a `//!` line.
pub(super) fn check(file: &TextFile) -> Option<Violation> {
    (!file.text.starts_with("//!")).then(|| {
        Violation::new(
            &file.path,
            Some(1),
            "does not start with a `//!` line saying what the file is for",
        )
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn file(text: &str) -> TextFile {
        TextFile {
            path: PathBuf::from("src/lib.rs"),
            text: text.to_owned(),
        }
    }

    #[test]
    fn a_file_that_opens_with_its_docs_passes() {
        assert_eq!(check(&file("//! What this is.\n\nfn f() {}\n")), None);
    }

    #[test]
    fn a_file_without_docs_on_its_first_line_is_reported() {
        for text in [
            "",
            "fn f() {}\n",
            "\n//! Too late.\n",
            "// A plain comment.\n",
        ] {
            let violation = check(&file(text)).unwrap();
            assert_eq!(violation.line, Some(1), "{text:?}");
            assert!(violation.message.contains("`//!`"), "{text:?}");
        }
    }
}
