//! [`RestartPolicy`]: how a server that crashed is started again.

use std::time::Duration;

/// How a server that crashed (its connection closed, or a health ping failed) is started
/// again: up to [`max_attempts`](Self::max_attempts) times, waiting an exponentially growing
/// delay with jitter before each attempt. The count of attempts goes back to zero only once
/// the server has stayed up for [`stable_after`](Self::stable_after), so a server that crashes
/// soon after every start ends as failed instead of looping forever.
///
/// In `mcp.json`, the `restart` field:
///
/// ```json
/// "restart": { "maxAttempts": 5, "backoffMs": 500, "maxBackoffMs": 30000, "stableAfterMs": 60000 }
/// ```
///
/// Every key is optional and takes the default below; `"restart": "never"` turns restarts off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RestartPolicy {
    /// How many restarts in a row may be tried; 0 never restarts. Default 5.
    pub max_attempts: u32,
    /// The delay before the first restart; each later one doubles it. Default 500 ms.
    pub backoff: Duration,
    /// The longest delay between restarts. Default 30 s.
    pub max_backoff: Duration,
    /// How long a server must stay up before its count of restarts starts again from zero.
    /// Default 60 s.
    pub stable_after: Duration,
}

impl RestartPolicy {
    /// Default for [`max_attempts`](Self::max_attempts).
    pub const DEFAULT_MAX_ATTEMPTS: u32 = 5;
    /// Default for [`backoff`](Self::backoff).
    pub const DEFAULT_BACKOFF: Duration = Duration::from_millis(500);
    /// Default for [`max_backoff`](Self::max_backoff).
    pub const DEFAULT_MAX_BACKOFF: Duration = Duration::from_secs(30);
    /// Default for [`stable_after`](Self::stable_after).
    pub const DEFAULT_STABLE_AFTER: Duration = Duration::from_secs(60);

    /// A policy that never restarts: a crashed server is reported as failed at once.
    pub const NEVER: Self = Self {
        max_attempts: 0,
        ..Self::DEFAULT
    };

    const DEFAULT: Self = Self {
        max_attempts: Self::DEFAULT_MAX_ATTEMPTS,
        backoff: Self::DEFAULT_BACKOFF,
        max_backoff: Self::DEFAULT_MAX_BACKOFF,
        stable_after: Self::DEFAULT_STABLE_AFTER,
    };

    /// Sets [`max_attempts`](Self::max_attempts).
    #[must_use]
    pub fn with_max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts;
        self
    }

    /// Sets [`backoff`](Self::backoff) and [`max_backoff`](Self::max_backoff).
    #[must_use]
    pub fn with_backoff(mut self, first: Duration, max: Duration) -> Self {
        self.backoff = first;
        self.max_backoff = max.max(first);
        self
    }

    /// Sets [`stable_after`](Self::stable_after).
    #[must_use]
    pub fn with_stable_after(mut self, window: Duration) -> Self {
        self.stable_after = window;
        self
    }

    /// The delay before restart number `attempt` (from 1): the backoff doubled for each
    /// earlier attempt, at most the maximum, then scaled by `jitter` (from 0.5 to 1.0, so
    /// that servers that crashed together do not all come back in the same instant).
    pub(crate) fn delay(&self, attempt: u32, jitter: f64) -> Duration {
        let doublings = attempt.saturating_sub(1).min(30);
        let delay = self
            .backoff
            .saturating_mul(1 << doublings)
            .min(self.max_backoff);
        delay.mul_f64(jitter.clamp(0.5, 1.0))
    }
}

impl Default for RestartPolicy {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_doubles_up_to_the_maximum_and_jitter_only_shortens_it() {
        let policy = RestartPolicy::default()
            .with_backoff(Duration::from_millis(100), Duration::from_millis(1_000));
        let delays: Vec<u128> = (1..=6).map(|n| policy.delay(n, 1.0).as_millis()).collect();
        assert_eq!(delays, [100, 200, 400, 800, 1_000, 1_000]);
        assert_eq!(policy.delay(2, 0.5), Duration::from_millis(100));
        assert_eq!(
            policy.delay(2, 0.0),
            Duration::from_millis(100),
            "jitter is clamped"
        );
        assert_eq!(policy.delay(u32::MAX, 1.0), Duration::from_millis(1_000));
    }
}
