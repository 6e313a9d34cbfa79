//! The medians of each row's samples, and the ratios between rows.

use super::client::Client;
use super::plan::{Comparison, Workload};
use super::run::Sample;

/// The medians of one row at one placement.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Summary {
    /// The workload.
    pub(crate) workload: Workload,
    /// The client.
    pub(crate) client: Client,
    /// Median cost: µs per call or turn, or ms per start or fleet (see [`unit()`]).
    pub(crate) cost: f64,
    /// Median client CPU per operation, in µs.
    pub(crate) cpu_us: Option<f64>,
    /// Median peak RSS of the client process, in KiB.
    pub(crate) peak_rss_kib: Option<f64>,
    /// Median RSS growth per session of a fleet, in KiB.
    pub(crate) rss_per_session_kib: Option<f64>,
    /// How many samples the medians are of.
    pub(crate) samples: usize,
}

impl Summary {
    /// The medians of `samples`.
    pub(crate) fn of(workload: Workload, client: Client, samples: &[Sample]) -> Self {
        let median_of = |field: fn(&Sample) -> Option<f64>| {
            let values: Vec<f64> = samples.iter().filter_map(field).collect();
            (!values.is_empty()).then(|| median(values))
        };
        Self {
            workload,
            client,
            cost: median_of(|s| Some(s.cost)).unwrap_or(f64::NAN),
            cpu_us: median_of(|s| s.cpu_us),
            peak_rss_kib: median_of(|s| s.peak_rss_kib),
            rss_per_session_kib: median_of(|s| s.rss_per_session_kib),
            samples: samples.len(),
        }
    }

    /// Operations per second, for the per-call and per-turn workloads.
    pub(crate) fn rate(&self) -> Option<f64> {
        per_operation(self.workload).then(|| 1e6 / self.cost)
    }
}

/// Whether `workload`'s cost is per call or turn (µs) rather than per start or fleet (ms).
pub(crate) fn per_operation(workload: Workload) -> bool {
    matches!(
        workload,
        Workload::Seq
            | Workload::Concurrent
            | Workload::Everything
            | Workload::Discovery
            | Workload::AgentTurn
            | Workload::HttpSeq
            | Workload::HttpConcurrent
            | Workload::HttpEverything
    )
}

/// The unit of `workload`'s cost.
pub(crate) fn unit(workload: Workload) -> &'static str {
    match workload {
        Workload::Discovery | Workload::AgentTurn => "µs/turn",
        _ if per_operation(workload) => "µs/call",
        Workload::Fleet | Workload::Tenants | Workload::QuietTenants | Workload::Tenants2026 => {
            "ms to ready"
        }
        _ => "ms",
    }
}

/// Toolport's median cost over the peer's, or `None` if a row is missing. The cost is client
/// CPU per call where [`Workload::ratio_on_cpu`], else the median cost.
pub(crate) fn ratio(summaries: &[Summary], comparison: &Comparison) -> Option<f64> {
    let on_cpu = comparison.workload.ratio_on_cpu();
    let cost = |client| {
        let summary = find(summaries, comparison.workload, client)?;
        if on_cpu {
            summary.cpu_us
        } else {
            Some(summary.cost)
        }
    };
    Some(cost(comparison.toolport)? / cost(comparison.peer)?)
}

/// The summary of `client` on `workload`.
pub(crate) fn find(summaries: &[Summary], workload: Workload, client: Client) -> Option<&Summary> {
    summaries
        .iter()
        .find(|s| s.workload == workload && s.client == client)
}

/// The median (the mean of the middle two for an even count).
pub(crate) fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    match values.len() {
        0 => f64::NAN,
        len if len % 2 == 1 => values[mid],
        _ => (values[mid - 1] + values[mid]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(Vec::new()).is_nan());
    }
}
