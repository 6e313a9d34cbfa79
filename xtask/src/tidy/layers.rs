//! The layering table of `docs/architecture.md`: under the heading `## Layering`, one row per
//! crate naming the `toolport*` crates it may depend on.
//!
//! The table reads:
//!
//! ```text
//! | crate | may depend on |
//! |---|---|
//! | `toolport-core` | — |
//! | `toolport-sse` | `toolport-core`, `toolport-http` |
//! ```
//!
//! A crate is named in backticks; `—` (or `-`) says it may depend on no `toolport*` crate. The
//! rows may come in any order, and the table ends at the first line that is not a row. Every
//! line that does not fit is reported, with its line number.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::Violation;

/// Where the table lives, relative to the workspace root.
pub(super) const DOC: &str = "docs/architecture.md";

/// The heading the table sits under.
const HEADING: &str = "## Layering";

/// The table's header row, as cells.
const HEADER: [&str; 2] = ["crate", "may depend on"];

/// One row of the table.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Row {
    /// The row's 1-based line in the document.
    pub(super) line: usize,
    /// The `toolport*` crates the row's crate may depend on.
    pub(super) allowed: BTreeSet<String>,
}

/// The whole table.
#[derive(Debug)]
pub(super) struct Layers {
    /// The 1-based line of the `## Layering` heading.
    pub(super) heading_line: usize,
    /// The rows, by crate.
    pub(super) rows: BTreeMap<String, Row>,
}

impl Layers {
    /// Parses the table out of the document `text`, or reports every line that does not fit.
    pub(super) fn parse(text: &str) -> Result<Self, Vec<Violation>> {
        let at =
            |line: Option<usize>, message: String| Violation::new(Path::new(DOC), line, message);
        let mut lines = text.lines().zip(1..);
        let Some((_, heading_line)) = lines.find(|(line, _)| line.trim_end() == HEADING) else {
            return Err(vec![at(
                None,
                format!("no `{HEADING}` heading with the layering table"),
            )]);
        };
        let mut table = lines
            .take_while(|(line, _)| !line.starts_with('#'))
            .skip_while(|(line, _)| !line.starts_with('|'))
            .take_while(|(line, _)| line.starts_with('|'));
        let Some((header, header_line)) = table.next() else {
            return Err(vec![at(
                Some(heading_line),
                format!("`{HEADING}` has no `| crate | may depend on |` table under it"),
            )]);
        };

        let mut problems = Vec::new();
        if cells(header) != HEADER {
            let message = "expected the header `| crate | may depend on |`".to_owned();
            problems.push(at(Some(header_line), message));
        }
        if !table.next().is_some_and(|(line, _)| is_separator(line)) {
            let message = "expected `|---|---|` under the header".to_owned();
            problems.push(at(Some(header_line + 1), message));
        }
        let mut rows = BTreeMap::new();
        for (text, line) in table {
            let Some((name, allowed)) = parse_row(text) else {
                let message = format!(
                    "expected a row like | `toolport-x` | `toolport-core`, `toolport-y` | \
                     (or — for none), found `{}`",
                    text.trim()
                );
                problems.push(at(Some(line), message));
                continue;
            };
            match rows.entry(name) {
                Entry::Vacant(row) => {
                    row.insert(Row { line, allowed });
                }
                Entry::Occupied(row) => {
                    let message = format!("`{}` has a row already", row.key());
                    problems.push(at(Some(line), message));
                }
            }
        }
        if problems.is_empty() {
            Ok(Self { heading_line, rows })
        } else {
            Err(problems)
        }
    }
}

/// A table line's cells, trimmed, without the outer `|`s.
fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(str::trim).collect()
}

/// Whether `line` is a separator row such as `|---|---|` or `| :--- | --- |`.
fn is_separator(line: &str) -> bool {
    let cells = cells(line);
    cells.len() == HEADER.len()
        && cells.iter().all(|cell| {
            let dashes = cell.trim_start_matches(':').trim_end_matches(':');
            !dashes.is_empty() && dashes.chars().all(|c| c == '-')
        })
}

/// A row's crate and the crates it may depend on, or `None` when it does not fit the form.
fn parse_row(line: &str) -> Option<(String, BTreeSet<String>)> {
    let [name, allowed] = cells(line)[..] else {
        return None;
    };
    let name = crate_name(name)?;
    let allowed = match allowed {
        "—" | "-" => BTreeSet::new(),
        list => list
            .split(',')
            .map(|cell| crate_name(cell.trim()))
            .collect::<Option<_>>()?,
    };
    Some((name, allowed))
}

/// The name in a cell such as `` `toolport-core` ``.
fn crate_name(cell: &str) -> Option<String> {
    let name = cell.strip_prefix('`')?.strip_suffix('`')?;
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    valid.then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(table: &str) -> String {
        format!(
            "# Architecture\n\nProse.\n\n## Layering\n\nThe rule.\n\n{table}\nAfter.\n\n## Next\n"
        )
    }

    fn allowed(layers: &Layers, name: &str) -> Vec<String> {
        layers.rows[name].allowed.iter().cloned().collect()
    }

    #[test]
    fn reads_rows_in_any_order_with_one_two_or_no_crates() {
        let layers = Layers::parse(&doc("| crate | may depend on |\n|---|---|\n\
             | `toolport-sse` | `toolport-core`, `toolport-http` |\n\
             | `toolport-core` | — |\n\
             |`toolport-http`|`toolport-core`|\n"))
        .unwrap();
        assert_eq!(layers.heading_line, 5);
        assert_eq!(layers.rows.len(), 3);
        assert_eq!(
            allowed(&layers, "toolport-sse"),
            ["toolport-core", "toolport-http"]
        );
        assert_eq!(allowed(&layers, "toolport-core"), Vec::<String>::new());
        assert_eq!(allowed(&layers, "toolport-http"), ["toolport-core"]);
        assert_eq!(layers.rows["toolport-sse"].line, 11);
    }

    #[test]
    fn reports_each_malformed_row_on_its_line() {
        let problems = Layers::parse(&doc("| crate | may depend on |\n| --- | :---: |\n\
             | toolport-core | — |\n\
             | `toolport-a` | `toolport-core` | extra |\n\
             | `toolport-b` | toolport-core |\n\
             | `toolport-c` | |\n\
             | `toolport-d` | — |\n\
             | `toolport-d` | — |\n"))
        .unwrap_err();
        let lines: Vec<Option<usize>> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [Some(11), Some(12), Some(13), Some(14), Some(16)]);
        assert!(
            problems[4]
                .message
                .contains("`toolport-d` has a row already")
        );
    }

    #[test]
    fn reports_a_missing_heading_table_header_or_separator() {
        let no_heading =
            Layers::parse("# Architecture\n\n| crate | may depend on |\n").unwrap_err();
        assert!(no_heading[0].message.contains("no `## Layering` heading"));
        // A table under the next heading is not the layering table.
        let no_table =
            Layers::parse("## Layering\n\nSoon.\n\n## Next\n\n| crate | may depend on |\n")
                .unwrap_err();
        assert_eq!(no_table[0].line, Some(1));
        let bad_header = Layers::parse(&doc("| crate | uses |\n|---|---|\n")).unwrap_err();
        assert_eq!(bad_header[0].line, Some(9));
        let no_separator =
            Layers::parse(&doc("| crate | may depend on |\n| `toolport-core` | — |\n"))
                .unwrap_err();
        assert_eq!(no_separator[0].line, Some(10));
    }
}
