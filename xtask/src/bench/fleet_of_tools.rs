//! The fleet-of-tools row: `toolport-bench-search` measures warm turns over 100, 1,000 and
//! 3,000 tools behind the server manager, with tool search and without, and this prints its
//! figures and goals: a search under 1 ms of CPU and the aggregate listing under 1 µs per tool
//! at 3,000 tools, and both costs growing no faster than linearly. Toolport against itself:
//! no peer offers tool search over a fleet.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::step;

/// How much more a tool may cost at the largest size than at the smallest before the cost
/// counts as growing faster than linearly (noise and caches, not the algorithm).
const LINEAR_SLACK: f64 = 2.0;

/// One size's figures, as `toolport-bench-search` printed them.
#[derive(Debug)]
pub(crate) struct FleetOfTools {
    sizes: Vec<Value>,
}

impl FleetOfTools {
    /// Runs `program` (`toolport-bench-search`) and reads its lines.
    pub(crate) fn measure(program: &Path) -> Result<Self> {
        let mut command = Command::new(program);
        let output = step::probe(&mut command)
            .with_context(|| format!("bench: {} failed", program.display()))?;
        let sizes = output
            .lines()
            .map(serde_json::from_str)
            .collect::<Result<Vec<Value>, _>>()
            .context("bench: the fleet-of-tools lines are not JSON")?;
        Ok(Self { sizes })
    }

    /// Prints the row and its goals.
    pub(crate) fn print(&self) {
        println!("\n10. fleet of tools behind the manager, warm turns (Toolport alone)");
        println!(
            "  {:>6}  {:>16}  {:>16}  {:>14}  {:>18}",
            "tools", "declared, all", "declared, search", "search CPU", "listing CPU/tool"
        );
        for size in &self.sizes {
            println!(
                "  {:>6}  {:>14} B  {:>14} B  {:>11.0} µs  {:>15.0} ns",
                size["tools"],
                size["declared_bytes_every_tool"],
                size["declared_bytes_search"],
                size["search_cpu_us"].as_f64().unwrap_or(f64::NAN),
                size["listing_cpu_ns_per_tool"].as_f64().unwrap_or(f64::NAN),
            );
        }
        for (goal, measured, met) in self.goals() {
            let verdict = match met {
                Some(true) => "met",
                Some(false) => "NOT MET",
                None => "no figure",
            };
            println!("  goal: {goal}: {measured} ({verdict})");
        }
    }

    /// The row as JSON, for the report.
    pub(crate) fn to_json(&self) -> Value {
        let goals: Vec<Value> = self
            .goals()
            .into_iter()
            .map(|(goal, measured, met)| json!({"goal": goal, "measured": measured, "met": met}))
            .collect();
        json!({"sizes": self.sizes, "goals": goals})
    }

    /// Each goal, its figure as text, and whether it holds.
    fn goals(&self) -> Vec<(&'static str, String, Option<bool>)> {
        let figure = |size: &Value, key: &str| size[key].as_f64();
        let (Some(smallest), Some(largest)) = (self.sizes.first(), self.sizes.last()) else {
            return Vec::new();
        };
        let per_tool = |size: &Value, key: &str| Some(figure(size, key)? / figure(size, "tools")?);
        let search_us = figure(largest, "search_cpu_us");
        let listing_ns = figure(largest, "listing_cpu_ns_per_tool");
        let growth = |key: &str, of_tools: bool| -> Option<f64> {
            if of_tools {
                Some(per_tool(largest, key)? / per_tool(smallest, key)?)
            } else {
                Some(figure(largest, key)? / figure(smallest, key)?)
            }
        };
        let search_growth = growth("search_cpu_us", true);
        let listing_growth = growth("listing_cpu_ns_per_tool", false);
        let show = |value: Option<f64>, unit: &str| {
            value.map_or_else(|| "missing".to_owned(), |value| format!("{value:.2}{unit}"))
        };
        vec![
            (
                "one search under 1 ms of CPU at the largest fleet",
                show(search_us, " µs"),
                search_us.map(|us| us < 1_000.0),
            ),
            (
                "the aggregate listing under 1 µs of CPU per tool at the largest fleet",
                show(listing_ns, " ns"),
                listing_ns.map(|ns| ns < 1_000.0),
            ),
            (
                "a search's cost per tool, largest fleet over smallest, at most 2 (linear)",
                show(search_growth, "x"),
                search_growth.map(|growth| growth <= LINEAR_SLACK),
            ),
            (
                "the listing's cost per tool, largest fleet over smallest, at most 2 (linear)",
                show(listing_growth, "x"),
                listing_growth.map(|growth| growth <= LINEAR_SLACK),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(tools: u64, search_us: f64, listing_ns: f64) -> Value {
        json!({
            "tools": tools,
            "declared_bytes_every_tool": tools * 200,
            "declared_bytes_search": 1_000,
            "search_cpu_us": search_us,
            "listing_cpu_ns_per_tool": listing_ns,
        })
    }

    fn verdicts(sizes: Vec<Value>) -> Vec<Option<bool>> {
        FleetOfTools { sizes }
            .goals()
            .into_iter()
            .map(|(_, _, met)| met)
            .collect()
    }

    #[test]
    fn the_goals_judge_the_largest_fleet_and_the_growth_per_tool() {
        let linear = vec![row(100, 16.0, 40.0), row(3_000, 530.0, 46.0)];
        assert_eq!(verdicts(linear), [Some(true); 4]);
        let quadratic = vec![row(100, 16.0, 40.0), row(3_000, 14_400.0, 1_200.0)];
        assert_eq!(verdicts(quadratic), [Some(false); 4]);
        assert!(verdicts(Vec::new()).is_empty());
    }
}
