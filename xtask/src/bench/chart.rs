//! The SVG chart of the ratios: one bar per comparison and placement, on a log scale centred
//! on 1 (left of it Toolport is faster, right of it slower).

use std::fmt::Write as _;

use super::plan::Plan;
use super::report::PlacementReport;
use super::run::Placement;
use super::summary::ratio;

const WIDTH: f64 = 1040.0;
const LABEL_WIDTH: f64 = 490.0;
const PLOT_LEFT: f64 = LABEL_WIDTH + 10.0;
const PLOT_RIGHT: f64 = WIDTH - 60.0;
const TOP: f64 = 60.0;
const ROW: f64 = 30.0;
const BAR: f64 = 11.0;

/// The chart as an SVG document.
pub(crate) fn svg(plan: &Plan, reports: &[PlacementReport]) -> String {
    let rows: Vec<(String, Vec<(Placement, f64)>)> = plan
        .comparisons
        .iter()
        .map(|c| {
            let label = format!(
                "{}: {} / {}",
                c.workload.key(),
                c.toolport.label(),
                c.peer.label()
            );
            let bars = reports
                .iter()
                .filter_map(|r| Some((r.placement, ratio(&r.summaries, c)?)))
                .filter(|(_, value)| value.is_finite() && *value > 0.0)
                .collect();
            (label, bars)
        })
        .collect();
    let logs = rows
        .iter()
        .flat_map(|(_, bars)| bars.iter().map(|(_, r)| r.log10()));
    let (lo, hi) = logs.fold((-1.0_f64, 1.0_f64), |(lo, hi), l| (lo.min(l), hi.max(l)));
    let (lo, hi) = (lo.floor(), hi.ceil());
    let x = |ratio: f64| PLOT_LEFT + (ratio.log10() - lo) / (hi - lo) * (PLOT_RIGHT - PLOT_LEFT);
    let height = TOP + ROW * rows.len() as f64 + 40.0;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="10" y="22" font-size="15" font-weight="bold">Toolport's median cost over each peer's (log scale): left of 1, Toolport is faster</text>"#
    );
    let _ = writeln!(
        out,
        r##"<rect x="10" y="34" width="12" height="10" fill="#1f5fa8"/><text x="28" y="43">pinned (taskset -c 0)</text><rect x="170" y="34" width="12" height="10" fill="#9cc3ea"/><text x="188" y="43">unpinned</text>"##
    );
    let bottom = TOP + ROW * rows.len() as f64;
    let mut decade = lo;
    while decade <= hi {
        let value = 10f64.powf(decade);
        let gx = x(value);
        let stroke = if decade == 0.0 { "#333" } else { "#ccc" };
        let _ = writeln!(
            out,
            r#"<line x1="{gx:.1}" y1="{TOP}" x2="{gx:.1}" y2="{bottom}" stroke="{stroke}"/><text x="{gx:.1}" y="{:.1}" text-anchor="middle">{value}×</text>"#,
            bottom + 16.0
        );
        decade += 1.0;
    }
    for (i, (label, bars)) in rows.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let _ = writeln!(
            out,
            r#"<text x="{LABEL_WIDTH}" y="{:.1}" text-anchor="end">{}</text>"#,
            y + ROW / 2.0 + 4.0,
            escape(label)
        );
        for (placement, value) in bars {
            let (offset, fill) = match placement {
                Placement::Pinned => (4.0, "#1f5fa8"),
                Placement::Unpinned => (4.0 + BAR + 1.0, "#9cc3ea"),
            };
            let (from, to) = (x(1.0), x(*value));
            let _ = writeln!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{BAR}" fill="{fill}"/><text x="{:.1}" y="{:.1}" font-size="10">{value:.2}</text>"#,
                from.min(to),
                y + offset,
                (to - from).abs().max(1.0),
                from.max(to) + 3.0,
                y + offset + 9.0
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// `text` with the XML special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
