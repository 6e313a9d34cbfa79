//! The default refresh lease: a lock per key within the process, which lapses after its hold
//! like a shared store's.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

use super::{TokenLease, longest_wait};
use crate::{TokenKey, TokenStoreError};

/// Every key's lease in this process.
static LEASES: LazyLock<LocalLeases> = LazyLock::new(LocalLeases::default);

/// The leases held in this process, by key, and the signal that one was let go.
#[derive(Default)]
struct LocalLeases {
    held: Mutex<HashMap<TokenKey, Held>>,
    released: Notify,
    /// Tells the leases apart, so a lapsed lease's drop does not let go of its successor.
    next_id: AtomicU64,
}

/// One held lease.
struct Held {
    id: u64,
    until: Instant,
}

/// Waits until this caller holds the lease of `key` for `hold`, at most
/// [`longest_wait`]`(hold)`.
pub(crate) async fn lease(key: &TokenKey, hold: Duration) -> Result<TokenLease, TokenStoreError> {
    let started = Instant::now();
    let deadline = started + longest_wait(hold);
    loop {
        // Registered before looking, so a release between the look and the wait still wakes it.
        let released = LEASES.released.notified();
        let lapses = match LEASES.try_take(key, hold) {
            Ok(lease) => return Ok(lease),
            Err(lapses) => lapses,
        };
        let now = Instant::now();
        if now >= deadline {
            return Err(TokenStoreError::LeaseTimeout {
                key: key.clone(),
                waited: now - started,
            });
        }
        tokio::select! {
            () = released => {}
            () = tokio::time::sleep_until(lapses.min(deadline)) => {}
        }
    }
}

impl LocalLeases {
    /// The lease of `key` when no one holds it (or its holder's lapsed); else when that lapses.
    fn try_take(&'static self, key: &TokenKey, hold: Duration) -> Result<TokenLease, Instant> {
        let now = Instant::now();
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(current) = held.get(key).filter(|current| current.until > now) {
            return Err(current.until);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        held.insert(
            key.clone(),
            Held {
                id,
                until: now + hold,
            },
        );
        let key = key.clone();
        Ok(TokenLease::new(move || self.release(&key, id)))
    }

    /// Lets go of lease `id` of `key`, if it is still the one held.
    fn release(&self, key: &TokenKey, id: u64) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.get(key).is_some_and(|current| current.id == id) {
            held.remove(key);
        }
        drop(held);
        self.released.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key of this test alone: the leases are shared by the whole test process.
    fn key(test: &str) -> TokenKey {
        TokenKey::new("https://lease.example/mcp", test)
    }

    #[tokio::test]
    async fn a_second_lease_waits_until_the_first_is_dropped() {
        let key = key("dropped");
        let hold = Duration::from_secs(5);
        let first = lease(&key, hold).await.unwrap();
        let waiting = tokio::spawn({
            let key = key.clone();
            async move {
                let started = Instant::now();
                let _second = lease(&key, hold).await.unwrap();
                started.elapsed()
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        drop(first);
        let waited = waiting.await.unwrap();
        assert!(waited >= Duration::from_millis(40), "{waited:?}");
        assert!(waited < hold, "{waited:?}");
    }

    #[tokio::test]
    async fn a_lease_never_dropped_lapses_after_its_hold() {
        let key = key("lapsed");
        let hold = Duration::from_millis(100);
        let started = Instant::now();
        let first = lease(&key, hold).await.unwrap();
        let second = lease(&key, hold).await.unwrap();
        assert!(started.elapsed() >= hold);
        // The lapsed lease's drop leaves its successor held.
        drop(first);
        let error = lease(&key, Duration::from_millis(20)).await.unwrap_err();
        assert!(
            matches!(error, TokenStoreError::LeaseTimeout { .. }),
            "{error}"
        );
        drop(second);
    }

    #[tokio::test]
    async fn a_wait_longer_than_twice_the_hold_fails() {
        let key = key("timeout");
        let _held = lease(&key, Duration::from_secs(5)).await.unwrap();
        let started = Instant::now();
        let error = lease(&key, Duration::from_millis(30)).await.unwrap_err();
        assert!(started.elapsed() >= Duration::from_millis(60));
        assert!(error.to_string().starts_with("waited "), "{error}");
        assert!(
            error
                .to_string()
                .contains("timeout at https://lease.example/mcp"),
            "{error}"
        );
    }

    #[tokio::test]
    async fn leases_of_different_keys_do_not_wait_for_each_other() {
        let hold = Duration::from_secs(5);
        let _a = lease(&key("a"), hold).await.unwrap();
        let started = Instant::now();
        let _b = lease(&key("b"), hold).await.unwrap();
        assert!(started.elapsed() < Duration::from_secs(1));
    }
}
