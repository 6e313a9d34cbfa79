//! What a phase is judged by: the [`Census`] before its work and after everything is closed,
//! its resident memory sampled as the work progresses ([`RssTrace`]), and the [`Verdict`]s
//! drawn from them.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::Phase;
use crate::census::{Census, Leak};

/// How long a phase may take, once everything is closed, to give back its children and file
/// descriptors: a child reaped by tokio's `SIGCHLD` handler, a socket closed by a task that
/// is still winding down.
pub const SETTLE: Duration = Duration::from_secs(5);

/// How often the census is taken again while a phase settles.
const SETTLE_POLL: Duration = Duration::from_millis(50);

/// The share of a phase's work that is warm-up: resident memory is compared from the first
/// sample at or past it to the end.
pub const WARM_UP: f64 = 0.1;

/// How far resident memory may move after warm-up, in percent, up or down.
pub const RSS_TOLERANCE_PERCENT: f64 = 5.0;

/// How many distinct messages of failures are kept; the rest are only counted.
const FAILURE_EXAMPLES: usize = 5;

/// Resident memory at one point of a phase's work.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RssSample {
    /// How much of the work was done, from 0 to 1.
    progress: f64,
    /// Resident memory in KiB.
    rss_kib: u64,
}

/// The process's resident memory, sampled as a phase's work progresses.
#[derive(Debug, Default)]
pub(super) struct RssTrace {
    samples: Mutex<Vec<RssSample>>,
}

impl RssTrace {
    /// Samples resident memory now, at `progress` (0 to 1) of the work.
    pub(super) fn record(&self, progress: f64) {
        let sample = RssSample {
            progress: progress.clamp(0.0, 1.0),
            rss_kib: Census::take().rss_kib,
        };
        self.samples
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(sample);
    }

    /// Warm-up against the end, and the range in between; `None` when no sample was taken
    /// past warm-up (the work failed early).
    fn summary(&self) -> Option<RssSummary> {
        let samples = self.samples.lock().unwrap_or_else(PoisonError::into_inner);
        let warm: Vec<&RssSample> = samples
            .iter()
            .filter(|sample| sample.progress >= WARM_UP)
            .collect();
        let first = warm.first()?;
        let last = warm.last()?;
        Some(RssSummary {
            start_kib: samples.first().map_or(0, |sample| sample.rss_kib),
            warm_kib: first.rss_kib,
            end_kib: last.rss_kib,
            min_kib: warm.iter().map(|sample| sample.rss_kib).min()?,
            max_kib: warm.iter().map(|sample| sample.rss_kib).max()?,
            samples: samples.len(),
        })
    }
}

/// Counts the units of a phase's work (cycles, calls) and samples resident memory at every
/// whole percent of them, so a phase of any size has about a hundred samples.
#[derive(Debug)]
pub(super) struct Progress {
    done: AtomicUsize,
    total: usize,
    trace: Arc<RssTrace>,
}

impl Progress {
    /// Progress through `total` units, sampled into `trace`.
    pub(super) fn new(total: usize, trace: Arc<RssTrace>) -> Progress {
        Progress {
            done: AtomicUsize::new(0),
            total: total.max(1),
            trace,
        }
    }

    /// Counts one unit done; the one that completes a percent samples resident memory.
    pub(super) fn finish_one(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if completes_a_percent(done, self.total) {
            self.trace.record(done as f64 / self.total as f64);
        }
    }
}

/// Whether unit number `done` (from 1) of `total` is the one that completes a whole percent.
fn completes_a_percent(done: usize, total: usize) -> bool {
    done * 100 / total != (done - 1) * 100 / total
}

/// The failures of a phase's work: how many, and the first few distinct messages.
#[derive(Debug, Default)]
pub(super) struct Failures {
    seen: Mutex<(usize, Vec<String>)>,
}

impl Failures {
    /// Counts one failure, described by `what`.
    pub(super) fn record(&self, what: impl fmt::Display) {
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.0 += 1;
        let message = what.to_string();
        if seen.1.len() < FAILURE_EXAMPLES && !seen.1.contains(&message) {
            seen.1.push(message);
        }
    }

    /// One line per kept message, the first saying how many failures of `what` there were.
    pub(super) fn lines(&self, what: &str) -> Vec<String> {
        let seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.0 == 0 {
            return Vec::new();
        }
        let mut lines = vec![format!("{} {what} failed", seen.0)];
        lines.extend(seen.1.iter().map(|message| format!("  e.g. {message}")));
        lines
    }
}

/// What a phase's work reports, beside what the census sees.
#[derive(Debug, Default)]
pub(super) struct Work {
    /// What was done, for the table: `1,000 cycles`, `100,000 calls, 1,850/s`.
    pub(super) done: String,
    /// What went wrong; any line fails the phase.
    pub(super) failures: Vec<String>,
    /// What else is worth reading: restarts counted, calls to a server that was down.
    pub(super) notes: Vec<String>,
}

impl Work {
    /// Work that could not be done at all, for `why`.
    pub(super) fn failed(why: String) -> Work {
        Work {
            failures: vec![why],
            ..Work::default()
        }
    }
}

/// Resident memory over a phase, in KiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RssSummary {
    /// At the start of the phase.
    pub start_kib: u64,
    /// At the first sample past warm-up ([`WARM_UP`] of the work).
    pub warm_kib: u64,
    /// At the end of the work, before anything was closed.
    pub end_kib: u64,
    /// The least of the samples past warm-up.
    pub min_kib: u64,
    /// The most of the samples past warm-up.
    pub max_kib: u64,
    /// How many samples were taken in all.
    pub samples: usize,
}

impl RssSummary {
    /// How much resident memory moved from warm-up to the end, in percent.
    pub fn change_percent(&self) -> f64 {
        (self.end_kib as f64 - self.warm_kib as f64) * 100.0 / self.warm_kib.max(1) as f64
    }

    /// Whether it moved no more than [`RSS_TOLERANCE_PERCENT`], up or down.
    pub fn is_flat(&self) -> bool {
        self.change_percent().abs() <= RSS_TOLERANCE_PERCENT
    }
}

/// One check of a phase, passed or not, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// What is checked: `children`, `fds`, `rss` or `work`.
    pub check: &'static str,
    /// Whether it held.
    pub passed: bool,
    /// What was seen.
    pub detail: String,
}

/// What one phase did and left behind.
#[derive(Debug, Clone)]
pub struct PhaseReport {
    /// The phase.
    pub phase: Phase,
    /// The census before its work began.
    pub start: Census,
    /// The census once everything was closed and the phase settled (or [`SETTLE`] passed).
    pub end: Census,
    /// How long the work took.
    pub elapsed: Duration,
    /// How long the phase took to settle after its work.
    pub settled_in: Duration,
    /// What `end` holds that `start` did not.
    pub leak: Option<Leak>,
    /// What each file descriptor open at the end but not at the start points at.
    pub leaked_fds: Vec<String>,
    /// Resident memory over the work; `None` if no sample was taken past warm-up.
    pub rss: Option<RssSummary>,
    /// What was done, in a few words.
    pub done: String,
    /// What went wrong in the work itself.
    pub failures: Vec<String>,
    /// What else the phase counted.
    pub notes: Vec<String>,
}

impl PhaseReport {
    /// The four checks: no child left (zombies included), no file descriptor left, resident
    /// memory flat after warm-up, and the work done without a failure.
    pub fn verdicts(&self) -> [Verdict; 4] {
        let children = self.leak.as_ref().map_or(0, |leak| leak.descendants.len());
        let extra_fds = self.leak.as_ref().map_or(0, |leak| leak.extra_fds);
        let rss = match &self.rss {
            Some(rss) => Verdict {
                check: "rss",
                passed: rss.is_flat(),
                detail: format!("{:+.1}% after warm-up", rss.change_percent()),
            },
            None => Verdict {
                check: "rss",
                passed: false,
                detail: "no sample past warm-up".to_owned(),
            },
        };
        [
            Verdict {
                check: "children",
                passed: children == 0,
                detail: format!("{children} left"),
            },
            Verdict {
                check: "fds",
                passed: extra_fds == 0,
                detail: format!("{extra_fds} left"),
            },
            rss,
            Verdict {
                check: "work",
                passed: self.failures.is_empty(),
                detail: format!("{} failures", self.failures.len()),
            },
        ]
    }

    /// Whether every verdict held.
    pub fn passed(&self) -> bool {
        self.verdicts().iter().all(|verdict| verdict.passed)
    }
}

/// Runs `work` as `phase`: a census before it, resident memory sampled by it into the trace
/// it is given, and a census after it once the phase settled.
pub(super) async fn phase<F, Fut>(phase: Phase, work: F) -> PhaseReport
where
    F: FnOnce(Arc<RssTrace>) -> Fut,
    Fut: Future<Output = Work>,
{
    let fds_before = fd_targets();
    let start = Census::take();
    let trace = Arc::new(RssTrace::default());
    trace.record(0.0);
    let began = Instant::now();
    let work = work(Arc::clone(&trace)).await;
    let elapsed = began.elapsed();

    let settling = Instant::now();
    let (end, leak) = loop {
        let end = Census::take();
        let leak = start.leaks_since(&end);
        if leak.is_none() || settling.elapsed() >= SETTLE {
            break (end, leak);
        }
        tokio::time::sleep(SETTLE_POLL).await;
    };
    let leaked_fds = if leak.as_ref().is_some_and(|leak| leak.extra_fds > 0) {
        fd_targets()
            .into_iter()
            .filter(|(fd, target)| fds_before.get(fd) != Some(target))
            .map(|(fd, target)| format!("fd {fd} -> {target}"))
            .collect()
    } else {
        Vec::new()
    };
    PhaseReport {
        phase,
        start,
        end,
        elapsed,
        settled_in: settling.elapsed(),
        leak,
        leaked_fds,
        rss: trace.summary(),
        done: work.done,
        failures: work.failures,
        notes: work.notes,
    }
}

/// What each open file descriptor of this process points at (`socket:[1234]`, a path), but
/// the one that reads the list.
fn fd_targets() -> BTreeMap<u32, String> {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return BTreeMap::new();
    };
    let reading = format!("/proc/{}/fd", std::process::id());
    entries
        .flatten()
        .filter_map(|entry| {
            let fd = entry.file_name().to_string_lossy().parse().ok()?;
            let target = std::fs::read_link(entry.path()).ok()?;
            Some((fd, target.display().to_string()))
        })
        .filter(|(_, target)| *target != reading)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(samples: &[(f64, u64)]) -> RssTrace {
        let trace = RssTrace::default();
        trace.samples.lock().unwrap().extend(
            samples
                .iter()
                .map(|&(progress, rss_kib)| RssSample { progress, rss_kib }),
        );
        trace
    }

    #[test]
    fn memory_is_judged_from_the_first_sample_past_warm_up_to_the_last() {
        let rss = trace(&[
            (0.0, 1_000),
            (0.05, 5_000),
            (0.1, 10_000),
            (0.5, 10_600),
            (1.0, 10_400),
        ])
        .summary()
        .unwrap();
        assert_eq!(
            (rss.start_kib, rss.warm_kib, rss.end_kib),
            (1_000, 10_000, 10_400)
        );
        assert_eq!((rss.min_kib, rss.max_kib), (10_000, 10_600));
        assert!(rss.is_flat(), "{}", rss.change_percent());

        let grown = trace(&[(0.1, 10_000), (1.0, 10_600)]).summary().unwrap();
        assert!(!grown.is_flat(), "{}", grown.change_percent());
        let shrunk = trace(&[(0.1, 10_000), (1.0, 9_400)]).summary().unwrap();
        assert!(!shrunk.is_flat(), "{}", shrunk.change_percent());
        assert_eq!(trace(&[(0.0, 1_000), (0.05, 1_000)]).summary(), None);
    }

    // No test here takes a census (a sample does): a census counts the whole process, and
    // the census module's own test, a thread of the same process, must not see ours.
    #[test]
    fn a_sample_is_taken_at_every_whole_percent_of_the_work() {
        for total in [1, 50, 99, 250, 100_000] {
            let samples: Vec<usize> = (1..=total)
                .filter(|&done| completes_a_percent(done, total))
                .collect();
            assert_eq!(samples.len(), total.min(100), "{total}");
            assert_eq!(samples.last(), Some(&total), "{total}");
        }
    }

    #[test]
    fn failures_are_counted_and_a_few_distinct_messages_kept() {
        let failures = Failures::default();
        assert!(failures.lines("calls").is_empty());
        for n in 0..20 {
            failures.record(format!("error {}", n % 7));
        }
        let lines = failures.lines("calls");
        assert_eq!(lines[0], "20 calls failed");
        assert_eq!(lines.len(), 1 + FAILURE_EXAMPLES);
    }
}
