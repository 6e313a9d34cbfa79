//! [`TokenLease`]: the refresh lease of one key, held by one refresher at a time, let go when
//! dropped.

pub(crate) mod local;

use std::fmt;
use std::time::Duration;

/// The refresh lease of one [`TokenKey`](crate::TokenKey), from
/// [`TokenStore::lease`](crate::TokenStore::lease): while it is held, no other holder of a lease
/// from the same store (in this process or, for a shared store, in another) holds the lease of
/// that key.
///
/// Dropping it lets the lease go. A lease also lapses by itself once the `hold` it was taken for
/// has passed, even when it is not dropped (a process that stopped, a release that could not
/// reach the store), and it is never extended: do the work it guards within `hold`.
///
/// `Debug` shows nothing of what it holds.
///
/// # Examples
///
/// A store of your own that coordinates through a service of its own makes a lease from the
/// function that lets it go:
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use toolport_auth::TokenLease;
///
/// let released = Arc::new(AtomicBool::new(false));
/// let flag = released.clone();
/// let lease = TokenLease::new(move || flag.store(true, Ordering::SeqCst));
/// drop(lease);
/// assert!(released.load(Ordering::SeqCst));
/// ```
pub struct TokenLease {
    release: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl TokenLease {
    /// A held lease that `release` lets go of, once, when the lease is dropped. `release` must
    /// not block: a store that lets go over the network spawns that work.
    pub fn new(release: impl FnOnce() + Send + Sync + 'static) -> Self {
        Self {
            release: Some(Box::new(release)),
        }
    }
}

impl Drop for TokenLease {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            release();
        }
    }
}

impl fmt::Debug for TokenLease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenLease").finish_non_exhaustive()
    }
}

/// How long [`TokenStore::lease`](crate::TokenStore::lease) waits for a lease taken for `hold`:
/// twice `hold`, so a waiter outlasts a holder that keeps the lease until it lapses.
pub(crate) fn longest_wait(hold: Duration) -> Duration {
    hold.saturating_mul(2)
}
