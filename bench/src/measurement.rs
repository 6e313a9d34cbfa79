//! [`Measurement`]: the one JSON line a client prints on stdout when it is done.

use std::time::Duration;

use serde_json::{Value, json};

use crate::args::Args;
use crate::usage;

/// What one client process measured. The field names are the contract with `cargo xtask
/// bench`, which the TypeScript and Python clients follow too.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// The client's name, such as `toolport` or `rmcp`.
    pub client: &'static str,
    /// The measured operations: calls, lifecycles, turns or servers.
    pub ops: usize,
    /// Wall-clock time of the measured section.
    pub elapsed: Duration,
    /// CPU time this process spent in the measured section.
    pub cpu: Duration,
    /// Per-operation times, where the median of them is the figure (cold starts).
    pub samples: Vec<Duration>,
    /// For a fleet: how much the resident set grew per session.
    pub rss_per_session_kib: Option<f64>,
}

impl Measurement {
    /// A measurement of `ops` operations over `elapsed` and `cpu`.
    pub fn new(client: &'static str, ops: usize, (elapsed, cpu): (Duration, Duration)) -> Self {
        Self {
            client,
            ops,
            elapsed,
            cpu,
            samples: Vec::new(),
            rss_per_session_kib: None,
        }
    }

    /// The JSON line, with the process's peak RSS read now.
    pub fn to_json(&self, args: &Args) -> Value {
        let samples_ms: Vec<f64> = self.samples.iter().map(millis).collect();
        json!({
            "client": self.client,
            "flavour": args.flavour.name(),
            "workload": args.workload.name(),
            "ops": self.ops,
            "elapsed_s": self.elapsed.as_secs_f64(),
            "cpu_s": self.cpu.as_secs_f64(),
            "samples_ms": samples_ms,
            "rss_per_session_kib": self.rss_per_session_kib,
            "peak_rss_kib": usage::peak_rss_kib(),
        })
    }

    /// Prints the JSON line on stdout.
    pub fn print(&self, args: &Args) {
        println!("{}", self.to_json(args));
    }
}

fn millis(duration: &Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}
