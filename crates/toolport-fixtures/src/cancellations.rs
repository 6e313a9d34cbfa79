//! [`CancellationCounter`]: how many `notifications/cancelled` a fixture server has received.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

/// Counts the `notifications/cancelled` a server received. Clones share the count, so a test
/// can keep one while the server it came from runs on another task.
#[derive(Debug, Clone)]
pub struct CancellationCounter {
    count: Arc<watch::Sender<usize>>,
}

impl CancellationCounter {
    pub(crate) fn new() -> Self {
        Self {
            count: Arc::new(watch::Sender::new(0)),
        }
    }

    pub(crate) fn record(&self) {
        self.count.send_modify(|count| *count += 1);
    }

    /// How many cancellations have arrived so far.
    pub fn get(&self) -> usize {
        *self.count.borrow()
    }

    /// Waits until at least `n` cancellations have arrived, for at most `timeout`. Returns the
    /// count reached, which is below `n` only if the time ran out.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> usize {
        let mut seen = self.count.subscribe();
        let reached = tokio::time::timeout(timeout, seen.wait_for(|count| *count >= n)).await;
        match reached {
            Ok(Ok(count)) => *count,
            _ => self.get(),
        }
    }
}
