//! [`RetryPolicy`]: how discovery requests (`initialize`, `tools/list`) are retried.

use std::future::Future;
use std::time::Duration;

use crate::SessionError;

/// How discovery (`initialize`, `tools/list`, and the other list requests) is retried.
///
/// Before each retry the session is discarded, so the retry starts on a fresh connection. An
/// error that can never succeed ([`SessionError::is_permanent`]) ends the attempts at once, and
/// so does a timeout: a server that hangs would otherwise multiply the wait. When every attempt
/// fails, the last error surfaces: the agent never quietly goes on without its tools.
///
/// `tools/call` is not governed by this policy; see [`CallReplay`](crate::CallReplay).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Retries after the first attempt. Default 3.
    pub max_retries: u32,
    /// Pause before each retry. Default 100 ms.
    pub delay: Duration,
}

impl RetryPolicy {
    /// No retries: the first failure surfaces.
    pub const NONE: Self = Self::new(0, Duration::ZERO);

    /// `max_retries` retries after the first attempt, `delay` apart.
    pub const fn new(max_retries: u32, delay: Duration) -> Self {
        Self { max_retries, delay }
    }

    /// Runs `attempt` until it succeeds, fails for good, or the retries run out. Before each
    /// retry, `announce` is told which attempt comes next, of how many, after what error, and
    /// `reset` runs.
    pub(crate) async fn run<T, A, AF, R, RF>(
        &self,
        mut attempt: A,
        mut reset: R,
        announce: impl Fn(u32, u32, &SessionError),
    ) -> Result<T, SessionError>
    where
        A: FnMut() -> AF,
        AF: Future<Output = Result<T, SessionError>>,
        R: FnMut() -> RF,
        RF: Future<Output = ()>,
    {
        let attempts = self.max_retries.saturating_add(1);
        let mut next = 1;
        loop {
            match attempt().await {
                Ok(value) => return Ok(value),
                Err(error) if next == attempts || !error.is_retryable() => return Err(error),
                Err(error) => {
                    next += 1;
                    tracing::info!(%error, attempt = next, attempts, "retrying on a fresh connection");
                    announce(next, attempts, &error);
                    reset().await;
                    tokio::time::sleep(self.delay).await;
                }
            }
        }
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self::new(3, Duration::from_millis(100))
    }
}
