//! The process's own resource readings: CPU time from `getrusage` and memory from
//! `/proc/self/status`.

use std::time::{Duration, Instant};

/// A point in time and the CPU time this process had used by then.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    wall: Instant,
    cpu: Duration,
}

impl Mark {
    /// Now.
    pub fn now() -> Self {
        Self {
            wall: Instant::now(),
            cpu: cpu_time(),
        }
    }

    /// Wall-clock and CPU time (user + system, all threads) spent since this mark.
    pub fn elapsed(&self) -> (Duration, Duration) {
        (self.wall.elapsed(), cpu_time().saturating_sub(self.cpu))
    }
}

/// User plus system CPU time of the whole process so far.
pub fn cpu_time() -> Duration {
    // SAFETY: `getrusage` only writes the struct it is given, which is plain data.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

/// The peak resident set size (`VmHWM`), in KiB.
pub fn peak_rss_kib() -> u64 {
    status_kib("VmHWM:")
}

/// The current resident set size (`VmRSS`), in KiB.
pub fn rss_kib() -> u64 {
    status_kib("VmRSS:")
}

/// A `kB` field of `/proc/self/status`, or 0 where there is none (not Linux).
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
