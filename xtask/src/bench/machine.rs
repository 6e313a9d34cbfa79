//! The machine a run was on: CPU count and model, and kernel.

use serde_json::{Value, json};

/// `nproc`, the CPU model from `/proc/cpuinfo`, and the kernel release.
pub(crate) fn describe() -> Value {
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name"))
        .and_then(|rest| rest.split_once(':'))
        .map_or("unknown", |(_, model)| model.trim());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    json!({ "nproc": cpus, "cpu": model, "kernel": kernel.trim() })
}
