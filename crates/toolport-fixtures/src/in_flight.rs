//! [`InFlightCounter`]: how many calls a fixture server is running at once, and the most it
//! ever ran together, so a test can prove concurrency without timing it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::watch;

/// Counts the calls of one kind running on a server. Clones share the count.
#[derive(Debug, Clone, Default)]
pub struct InFlightCounter {
    counts: Arc<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    now: watch::Sender<usize>,
    peak: AtomicUsize,
}

impl InFlightCounter {
    /// Counts one call until the returned guard is dropped.
    pub(crate) fn enter(&self) -> InFlightGuard {
        let mut now = 0;
        self.counts.now.send_modify(|count| {
            *count += 1;
            now = *count;
        });
        self.counts.peak.fetch_max(now, Ordering::SeqCst);
        InFlightGuard(Arc::clone(&self.counts))
    }

    /// How many calls are running now.
    pub fn now(&self) -> usize {
        *self.counts.now.borrow()
    }

    /// The most calls that ever ran at once.
    pub fn peak(&self) -> usize {
        self.counts.peak.load(Ordering::SeqCst)
    }

    /// Waits until at least `n` calls run at once, for at most `timeout`. Returns how many run
    /// then, which is below `n` only if the time ran out.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> usize {
        let mut seen = self.counts.now.subscribe();
        let reached = tokio::time::timeout(timeout, seen.wait_for(|count| *count >= n)).await;
        match reached {
            Ok(Ok(count)) => *count,
            _ => self.now(),
        }
    }
}

/// One call being counted.
#[derive(Debug)]
pub(crate) struct InFlightGuard(Arc<Counts>);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        self.0.now.send_modify(|count| *count -= 1);
    }
}
