//! The soak's output: a line as each phase ends, and the [`table`] of every phase at the end,
//! with what failed or leaked beneath it.

use std::fmt::Write as _;

use super::measure::{PhaseReport, RSS_TOLERANCE_PERCENT, WARM_UP};

/// The headings of the table's columns.
const HEADINGS: [&str; 9] = [
    "phase",
    "work",
    "time",
    "children",
    "fds",
    "RSS start",
    "RSS warm → end",
    "RSS min–max",
    "verdict",
];

/// One line for a phase that just ended: its name, what it did and whether it passed.
pub(super) fn line(report: &PhaseReport) -> String {
    format!(
        "soak: {} {} in {:.1} s: {}",
        report.phase.name(),
        report.done,
        report.elapsed.as_secs_f64(),
        verdict(report)
    )
}

/// The table of every phase, then for each phase what failed, leaked or was counted.
pub fn table(reports: &[PhaseReport]) -> String {
    let rows: Vec<[String; 9]> = reports.iter().map(row).collect();
    let mut widths = HEADINGS.map(|heading| heading.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    push_row(&mut out, &HEADINGS.map(str::to_owned), &widths);
    let rule: Vec<String> = widths.iter().map(|&width| "-".repeat(width)).collect();
    push_row(&mut out, &rule, &widths);
    for row in &rows {
        push_row(&mut out, row, &widths);
    }
    let _ = writeln!(
        out,
        "\nchildren and fds: at the start → at the end, once closed and settled. RSS in MiB; \
         warm is the first sample past {:.0}% of the work, and the verdict wants warm → end \
         within ±{RSS_TOLERANCE_PERCENT:.0}%; min–max are the samples past warm-up.",
        WARM_UP * 100.0
    );
    for report in reports {
        let details = details(report);
        if !details.is_empty() {
            let _ = writeln!(out, "\n{}:", report.phase.name());
            for detail in details {
                let _ = writeln!(out, "  {detail}");
            }
        }
    }
    out
}

/// A phase's cells.
fn row(report: &PhaseReport) -> [String; 9] {
    let (rss_start, rss_warm_end, rss_range) = match &report.rss {
        Some(rss) => (
            mib(rss.start_kib),
            format!(
                "{} → {} ({:+.1}%)",
                mib(rss.warm_kib),
                mib(rss.end_kib),
                rss.change_percent()
            ),
            format!("{}–{}", mib(rss.min_kib), mib(rss.max_kib)),
        ),
        None => ("-".to_owned(), "-".to_owned(), "-".to_owned()),
    };
    [
        report.phase.name().to_owned(),
        report.done.clone(),
        format!("{:.1} s", report.elapsed.as_secs_f64()),
        format!(
            "{} → {}",
            report.start.descendants.len(),
            report.end.descendants.len()
        ),
        format!("{} → {}", report.start.open_fds, report.end.open_fds),
        rss_start,
        rss_warm_end,
        rss_range,
        verdict(report),
    ]
}

/// `pass`, or `FAIL` and the checks that failed.
fn verdict(report: &PhaseReport) -> String {
    let failed: Vec<&str> = report
        .verdicts()
        .iter()
        .filter(|verdict| !verdict.passed)
        .map(|verdict| verdict.check)
        .collect();
    if failed.is_empty() {
        "pass".to_owned()
    } else {
        format!("FAIL ({})", failed.join(", "))
    }
}

/// What is worth reading beneath the table about one phase: failed checks, what leaked, the
/// work's failures and its notes.
fn details(report: &PhaseReport) -> Vec<String> {
    let mut details: Vec<String> = report
        .verdicts()
        .iter()
        .filter(|verdict| !verdict.passed)
        .map(|verdict| format!("{} failed: {}", verdict.check, verdict.detail))
        .collect();
    if let Some(leak) = &report.leak {
        details.push(format!(
            "left after {:.1} s of settling: {leak}",
            report.settled_in.as_secs_f64()
        ));
    }
    details.extend(report.leaked_fds.iter().cloned());
    details.extend(report.failures.iter().cloned());
    details.extend(report.notes.iter().cloned());
    details
}

/// KiB as MiB with one decimal.
fn mib(kib: u64) -> String {
    format!("{:.1}", kib as f64 / 1024.0)
}

fn push_row(out: &mut String, cells: &[String], widths: &[usize]) {
    let line: Vec<String> = cells
        .iter()
        .zip(widths)
        .map(|(cell, &width)| format!("{cell:<width$}"))
        .collect();
    let _ = writeln!(out, "{}", line.join("  ").trim_end());
}
