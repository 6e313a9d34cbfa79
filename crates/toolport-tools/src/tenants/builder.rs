//! [`TenantToolsetsBuilder`]: the bounds of a [`TenantToolsets`] cache and the factory that
//! makes each tenant's toolset.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::time::MissedTickBehavior;
use toolport_core::Timeouts;

use super::{Inner, TenantId, TenantToolsets};
use crate::{McpToolset, ToolsetError};

/// What the factory returns for one tenant.
pub(super) type Building = Pin<Box<dyn Future<Output = Result<McpToolset, ToolsetError>> + Send>>;

/// Makes a tenant's toolset.
pub(super) type Factory = Arc<dyn Fn(&TenantId) -> Building + Send + Sync>;

/// The bounds a cache keeps to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    pub(super) capacity: usize,
    pub(super) idle: Option<Duration>,
    pub(super) retire_grace: Duration,
}

/// Builds a [`TenantToolsets`] cache.
#[must_use]
pub struct TenantToolsetsBuilder {
    factory: Factory,
    bounds: Bounds,
    sweep_every: Option<Duration>,
}

impl fmt::Debug for TenantToolsetsBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TenantToolsetsBuilder")
            .field("bounds", &self.bounds)
            .field("sweep_every", &self.sweep_every)
            .finish_non_exhaustive()
    }
}

impl TenantToolsetsBuilder {
    /// The most tenants kept by default.
    pub const DEFAULT_CAPACITY: usize = 1_000;
    /// How long a tenant's toolset may sit unused by default before it is closed.
    pub const DEFAULT_IDLE: Duration = Duration::from_secs(10 * 60);
    /// How long a retired toolset waits for its leases by default: the default request bound,
    /// so a call in flight under the default [`Timeouts`] always finishes first.
    pub const DEFAULT_RETIRE_GRACE: Duration = Timeouts::DEFAULT_REQUEST;

    pub(super) fn new<F, Fut>(factory: F) -> Self
    where
        F: Fn(&TenantId) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<McpToolset, ToolsetError>> + Send + 'static,
    {
        let factory: Factory =
            Arc::new(move |tenant: &TenantId| -> Building { Box::pin(factory(tenant)) });
        Self {
            factory,
            bounds: Bounds {
                capacity: Self::DEFAULT_CAPACITY,
                idle: Some(Self::DEFAULT_IDLE),
                retire_grace: Self::DEFAULT_RETIRE_GRACE,
            },
            sweep_every: None,
        }
    }

    /// The most tenants kept at once (at least 1). A new tenant past it evicts the least
    /// recently used one, whose toolset is closed. Default
    /// [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY).
    pub fn capacity(mut self, capacity: usize) -> Self {
        self.bounds.capacity = capacity.max(1);
        self
    }

    /// How long a tenant's toolset may go unused (no [`get`](TenantToolsets::get)) before it
    /// is evicted and closed; `None` keeps it until the capacity pushes it out. Idle tenants are
    /// found on every `get` and, with [`sweep_every`](Self::sweep_every), on a timer. Default
    /// [`DEFAULT_IDLE`](Self::DEFAULT_IDLE).
    pub fn idle_timeout(mut self, idle: Option<Duration>) -> Self {
        self.bounds.idle = idle;
        self
    }

    /// How long a toolset taken out of the cache (evicted, rotated away or closed) waits for
    /// its leases to be dropped before it is closed anyway; a call still running then fails.
    /// Default [`DEFAULT_RETIRE_GRACE`](Self::DEFAULT_RETIRE_GRACE).
    pub fn retire_grace(mut self, grace: Duration) -> Self {
        self.bounds.retire_grace = grace;
        self
    }

    /// Also looks for idle tenants every `period`, on a tokio task that ends with the cache,
    /// so that a tenant who never comes back is closed without waiting for another `get`.
    /// Default: only on `get`.
    pub fn sweep_every(mut self, period: Duration) -> Self {
        self.sweep_every = Some(period);
        self
    }

    /// The cache, empty: each tenant's toolset is made on its first
    /// [`get`](TenantToolsets::get).
    ///
    /// # Panics
    ///
    /// With [`sweep_every`](Self::sweep_every), outside a tokio runtime.
    pub fn build(self) -> TenantToolsets {
        let inner = Arc::new(Inner::new(self.factory, self.bounds));
        if let Some(period) = self.sweep_every {
            tokio::spawn(sweep(Arc::downgrade(&inner), period));
        }
        TenantToolsets { inner }
    }
}

/// Evicts idle tenants every `period` until the cache is gone.
async fn sweep(inner: Weak<Inner>, period: Duration) {
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    ticks.tick().await;
    loop {
        ticks.tick().await;
        let Some(inner) = inner.upgrade() else {
            return;
        };
        inner.evict_expired();
    }
}
