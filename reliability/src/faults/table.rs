//! The matrix as text: a table with a row per fault and a column per transport, then a line
//! per cell saying what it saw, how long it took, and for a failure why.

use std::fmt::Write as _;

use super::runner::CellReport;
use super::{Cell, Fault, Transport};

/// A cell that passed.
const OK: &str = "ok";
/// A cell that failed.
const FAIL: &str = "FAIL";
/// A fault that does not apply to the transport.
const DOES_NOT_APPLY: &str = "—";
/// A cell that exists but was left out by the filter.
const NOT_RUN: &str = "·";

/// The table and the detail lines for `reports`, out of the matrix `all`. Rows without a
/// report are left out, so a filtered run shows only what it ran.
pub fn render(all: &[Cell], reports: &[CellReport]) -> String {
    let exists = |fault: Fault, transport: Transport| {
        all.iter()
            .any(|cell| cell.fault == fault && cell.transport == transport)
    };
    let report_of = |fault: Fault, transport: Transport| {
        reports
            .iter()
            .find(|report| report.fault == fault && report.transport == transport)
    };
    let first_width = Fault::ALL
        .iter()
        .map(|fault| fault.label().chars().count())
        .max()
        .unwrap_or(0);
    let widths: Vec<usize> = Transport::ALL
        .iter()
        .map(|transport| transport.label().len().max(FAIL.len()))
        .collect();

    let mut out = String::new();
    let passed = reports.iter().filter(|report| report.passed()).count();
    let _ = writeln!(
        out,
        "Toolport fault matrix: {passed} of {} cells passed. ok: a typed error within the \
         bound, the next call working, no replay, nothing leaked; {DOES_NOT_APPLY}: the fault \
         does not apply; {NOT_RUN}: not run.",
        reports.len()
    );
    let _ = writeln!(out, "{}", super::stdio::SETUP);
    let _ = writeln!(out);
    let mut header = format!("{:first_width$}", "fault");
    for (transport, width) in Transport::ALL.iter().zip(&widths) {
        let _ = write!(header, "  {:width$}", transport.label());
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for fault in Fault::ALL {
        if !Transport::ALL
            .iter()
            .any(|&transport| report_of(fault, transport).is_some())
        {
            continue;
        }
        let mut row = format!("{:first_width$}", fault.label());
        for (&transport, width) in Transport::ALL.iter().zip(&widths) {
            let mark = match report_of(fault, transport) {
                Some(report) if report.passed() => OK,
                Some(_) => FAIL,
                None if exists(fault, transport) => NOT_RUN,
                None => DOES_NOT_APPLY,
            };
            let _ = write!(row, "  {mark:width$}");
        }
        let _ = writeln!(out, "{}", row.trim_end());
    }
    let _ = writeln!(out);
    for report in reports {
        let (mark, detail) = match &report.outcome {
            Ok(seen) => (OK, seen.clone()),
            Err(why) => (FAIL, why.to_string()),
        };
        let _ = writeln!(
            out,
            "{mark:4}  {} / {} ({:.1} s): {detail}",
            report.fault.label(),
            report.transport.label(),
            report.elapsed.as_secs_f64()
        );
    }
    out
}
