//! [`MockConnector`]: wraps a connector and fails its next connects on demand.

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use toolport_core::{ConnectContext, ConnectError, Connection, Connector};

type MakeError = Arc<dyn Fn() -> ConnectError + Send + Sync>;

/// A [`Connector`] for unit tests of code that connects and reconnects: it passes connects
/// through to `inner`, except that [`fail_next`](MockConnector::fail_next) makes the next
/// connects fail with an error of your choosing. It counts every attempt, failed or not.
///
/// # Examples
///
/// ```
/// use toolport_core::{ConnectContext, ConnectError, Connector};
/// use toolport_testkit::{MockConnector, task_tracker_connector};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let connector = MockConnector::new(task_tracker_connector());
/// connector.fail_next(2, || ConnectError::unreachable("connection refused"));
/// let context = ConnectContext::default();
/// assert!(connector.connect(&context).await.is_err());
/// assert!(connector.connect(&context).await.is_err());
/// assert!(connector.connect(&context).await.is_ok());
/// assert_eq!(connector.attempts(), 3);
/// assert_eq!(connector.inner().connect_count(), 1);
/// # }
/// ```
pub struct MockConnector<C> {
    inner: C,
    failures: Mutex<VecDeque<MakeError>>,
    attempts: AtomicUsize,
}

impl<C: Connector> MockConnector<C> {
    /// Wraps `inner`; no connect fails until [`fail_next`](MockConnector::fail_next) says so.
    pub fn new(inner: C) -> Self {
        Self {
            inner,
            failures: Mutex::new(VecDeque::new()),
            attempts: AtomicUsize::new(0),
        }
    }

    /// Makes the next `n` connects fail with `error()` without reaching `inner`. Calls add up:
    /// failures queued earlier come first.
    pub fn fail_next(
        &self,
        n: usize,
        error: impl Fn() -> ConnectError + Send + Sync + 'static,
    ) -> &Self {
        let error: MakeError = Arc::new(error);
        self.queue().extend(std::iter::repeat_n(error, n));
        self
    }

    /// How many connects have been attempted, failed or not.
    pub fn attempts(&self) -> usize {
        self.attempts.load(Ordering::SeqCst)
    }

    /// How many queued failures are still to come.
    pub fn pending_failures(&self) -> usize {
        self.queue().len()
    }

    /// The wrapped connector.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, VecDeque<MakeError>> {
        self.failures.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<C: fmt::Debug> fmt::Debug for MockConnector<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pending = self.failures.lock().map_or(0, |queue| queue.len());
        f.debug_struct("MockConnector")
            .field("inner", &self.inner)
            .field("attempts", &self.attempts.load(Ordering::SeqCst))
            .field("pending_failures", &pending)
            .finish()
    }
}

#[async_trait::async_trait]
impl<C: Connector> Connector for MockConnector<C> {
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
        self.attempts.fetch_add(1, Ordering::SeqCst);
        let failure = self.queue().pop_front();
        match failure {
            Some(error) => Err(error()),
            None => self.inner.connect(context).await,
        }
    }

    fn target(&self) -> String {
        self.inner.target()
    }

    fn handshake_only(&self) -> bool {
        self.inner.handshake_only()
    }
}
