//! The refresh lease in Redis: `SET NX PX` to take it, a compare-and-delete script to let it
//! go.

use std::sync::LazyLock;
use std::time::Duration;

use tokio::time::Instant;

use super::RedisTokenStore;
use super::failure::Action;
use crate::lease::longest_wait;
use crate::{TokenKey, TokenLease, TokenStoreError};

/// The first pause between two tries to take a lease; it doubles up to [`LONGEST_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(5);
/// The longest pause between two tries.
const LONGEST_PAUSE: Duration = Duration::from_millis(100);

/// Deletes the lease only while it still holds the holder's value: a lease that lapsed and was
/// taken by another is left to its new holder.
static RELEASE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"if redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
          else
              return 0
          end",
    )
});

/// Waits until this caller holds the lease of `key` in `store` for `hold`, at most
/// [`longest_wait`]`(hold)`.
pub(super) async fn take(
    store: &RedisTokenStore,
    key: &TokenKey,
    hold: Duration,
) -> Result<TokenLease, TokenStoreError> {
    let lease_key = store.lease_key(key);
    // Unique among every holder of every replica: 128 random bits.
    let holder = oauth2::CsrfToken::new_random().into_secret();
    let hold_ms = u64::try_from(hold.as_millis()).unwrap_or(u64::MAX).max(1);
    let started = Instant::now();
    let deadline = started + longest_wait(hold);
    let mut pause = FIRST_PAUSE;
    loop {
        let mut connection = store.connection.clone();
        let taken: Option<String> = redis::cmd("SET")
            .arg(&lease_key)
            .arg(&holder)
            .arg("NX")
            .arg("PX")
            .arg(hold_ms)
            .query_async(&mut connection)
            .await
            .map_err(store.failure(Action::TakeLease))?;
        if taken.is_some() {
            return Ok(TokenLease::new(move || {
                release(connection, lease_key, holder);
            }));
        }
        let now = Instant::now();
        if now + pause > deadline {
            return Err(TokenStoreError::LeaseTimeout {
                key: key.clone(),
                waited: now - started,
            });
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
}

/// Deletes the lease at `lease_key` if `holder` still holds it, in a task of the current Tokio
/// runtime; without one, the lease lapses by itself.
fn release(mut connection: redis::aio::ConnectionManager, lease_key: String, holder: String) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    runtime.spawn(async move {
        let released = RELEASE
            .key(&lease_key)
            .arg(&holder)
            .invoke_async::<i64>(&mut connection)
            .await;
        if let Err(error) = released {
            tracing::debug!(%error, "the refresh lease could not be let go; it lapses by itself");
        }
    });
}
