//! [`CallSlots`]: the bound on a session's tool calls in flight. A call past it waits for a
//! slot, first come first served, and the wait counts against the call's own bound.

use std::num::NonZeroUsize;
use std::time::Duration;

use tokio::sync::{Semaphore, SemaphorePermit};
use tokio::time::Instant;

/// At most `limit` tool calls of one session in flight; the others wait in the order they came
/// (tokio's semaphore is fair).
#[derive(Debug)]
pub(crate) struct CallSlots {
    slots: Semaphore,
    limit: NonZeroUsize,
}

impl CallSlots {
    /// `limit` slots; a limit above what tokio's semaphore holds is as good as none.
    pub(crate) fn new(limit: NonZeroUsize) -> Self {
        Self {
            slots: Semaphore::new(limit.get().min(Semaphore::MAX_PERMITS)),
            limit,
        }
    }

    /// How many calls may be in flight at once.
    pub(crate) fn limit(&self) -> NonZeroUsize {
        self.limit
    }

    /// Waits for a slot, for at most `bound`: the slot, held until it is dropped, and what is
    /// left of `bound`. `None` when `bound` ran out first (a slot freed as it ran out leaves
    /// nothing to send the call with, so it counts as run out too).
    pub(crate) async fn take(&self, bound: Duration) -> Option<(SemaphorePermit<'_>, Duration)> {
        let started = Instant::now();
        // The semaphore is never closed, so an acquire fails only when `bound` runs out.
        let slot = tokio::time::timeout(bound, self.slots.acquire())
            .await
            .ok()?
            .ok()?;
        let left = bound.saturating_sub(started.elapsed());
        (!left.is_zero()).then_some((slot, left))
    }
}
