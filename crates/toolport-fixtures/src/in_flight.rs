//! [`InFlightCounter`]: how many calls a fixture server is running at once, and the most it
//! ever ran together, so a test can prove concurrency without timing it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the calls of one kind running on a server. Clones share the count.
#[derive(Debug, Clone, Default)]
pub struct InFlightCounter {
    counts: Arc<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    now: AtomicUsize,
    peak: AtomicUsize,
}

impl InFlightCounter {
    /// Counts one call until the returned guard is dropped.
    pub(crate) fn enter(&self) -> InFlightGuard {
        let now = self.counts.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.counts.peak.fetch_max(now, Ordering::SeqCst);
        InFlightGuard(Arc::clone(&self.counts))
    }

    /// How many calls are running now.
    pub fn now(&self) -> usize {
        self.counts.now.load(Ordering::SeqCst)
    }

    /// The most calls that ever ran at once.
    pub fn peak(&self) -> usize {
        self.counts.peak.load(Ordering::SeqCst)
    }
}

/// One call being counted.
#[derive(Debug)]
pub(crate) struct InFlightGuard(Arc<Counts>);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        self.0.now.fetch_sub(1, Ordering::SeqCst);
    }
}
