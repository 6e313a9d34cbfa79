//! Tidy check: no Rust file has more than [`MAX_LINES`] lines; a longer one holds more than
//! one concept and is split.

use super::{TextFile, Violation};

/// The most lines a Rust file may have.
pub(super) const MAX_LINES: usize = 600;

/// A violation, on the first line past the limit, when `file` has more than [`MAX_LINES`].
pub(super) fn check(file: &TextFile) -> Option<Violation> {
    let lines = file.text.lines().count();
    (lines > MAX_LINES).then(|| {
        Violation::new(
            &file.path,
            Some(MAX_LINES + 1),
            format!("has {lines} lines, more than {MAX_LINES}: split it, one concept per file"),
        )
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn file_of(lines: usize) -> TextFile {
        TextFile {
            path: PathBuf::from("src/big.rs"),
            text: "//! Filler.\n".repeat(lines),
        }
    }

    #[test]
    fn a_file_at_the_limit_passes() {
        assert_eq!(check(&file_of(MAX_LINES)), None);
    }

    #[test]
    fn a_file_past_the_limit_is_reported_where_it_goes_over() {
        let violation = check(&file_of(MAX_LINES + 1)).unwrap();
        assert_eq!(violation.line, Some(MAX_LINES + 1));
        assert!(violation.message.contains("601 lines"));
    }
}
