//! Per-tenant toolsets: [`TenantToolsets`], a cache of one [`McpToolset`] per tenant, for
//! servers that must act as the end user (a session per user, with that user's credentials).
//! It is bounded by a capacity (least recently used out first) and an idle timeout, closes
//! every toolset it lets go, and swaps a tenant's toolset with [`TenantToolsets::rotate`]
//! without failing a call in flight.
//!
//! Most applications need one toolset shared by every caller (see [`McpToolset`]); reach for
//! this only when the server must see each user apart.

mod builder;
mod entries;
mod lease;
mod tenant_id;

use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::time::Instant;
use tokio_util::task::TaskTracker;

pub use self::builder::TenantToolsetsBuilder;
use self::builder::{Bounds, Factory};
use self::entries::{Entries, Slot};
use self::lease::Live;
pub use self::lease::TenantToolset;
pub use self::tenant_id::TenantId;
use crate::{McpToolset, ToolsetError};

/// A cache of toolsets, one per tenant, made on first use by an async factory.
///
/// [`get`](Self::get) lends a tenant's toolset as a [`TenantToolset`], building it first if
/// the tenant has none: concurrent first callers of one tenant wait for one build, and no lock
/// is held across the build or any call. A build that fails is reported to its caller and not
/// kept, so the next `get` tries again.
///
/// A toolset leaves the cache when the capacity pushes it out, when it has been idle too long,
/// on [`evict`](Self::evict), [`rotate`](Self::rotate) and [`close`](Self::close). It is then
/// closed once its last lease is dropped (or after the
/// [`retire_grace`](TenantToolsetsBuilder::retire_grace)), so a call in flight finishes on the
/// session it started on. Clones share the cache; when the last one is dropped every toolset is
/// retired the same way, in the background.
///
/// # Examples
///
/// ```
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use toolport_tools::McpToolset;
/// use toolport_tools::tenants::{TenantId, TenantToolsets};
///
/// let tenants = TenantToolsets::builder(|_tenant: &TenantId| {
///     // A real factory gives the toolset this tenant's credentials: for an HTTP server,
///     // `base.clone().bearer_token(token_of(tenant))`, where every tenant's server is a clone
///     // of one `base`, so that they share its connection pool.
///     McpToolset::builder(toolport_testkit::task_tracker_connector()).build()
/// })
/// .capacity(10_000)
/// .build();
/// let toolset = tenants.get("alice").await?;
/// assert_eq!(toolset.tools(None).await?.len(), 3);
/// drop(toolset);
/// tenants.close().await;
/// # Ok(())
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(run()).unwrap();
/// ```
#[derive(Clone)]
pub struct TenantToolsets {
    inner: Arc<Inner>,
}

/// What the clones of a cache share.
struct Inner {
    entries: Mutex<Entries>,
    factory: Factory,
    bounds: Bounds,
    /// The toolsets being retired, which [`TenantToolsets::close`] waits for.
    retiring: TaskTracker,
}

impl TenantToolsets {
    /// A builder for a cache whose toolsets `factory` makes, one per tenant.
    pub fn builder<F, Fut>(factory: F) -> TenantToolsetsBuilder
    where
        F: Fn(&TenantId) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<McpToolset, ToolsetError>> + Send + 'static,
    {
        TenantToolsetsBuilder::new(factory)
    }

    /// `tenant`'s toolset, made by the factory if the tenant has none. Idle and surplus
    /// tenants are evicted first.
    ///
    /// # Errors
    ///
    /// The factory's error, when it fails; nothing is kept, and the next `get` builds again
    /// (as does each caller that was waiting for the failed build).
    pub async fn get(&self, tenant: impl Into<TenantId>) -> Result<TenantToolset, ToolsetError> {
        let tenant = tenant.into();
        let slot = {
            let mut entries = self.inner.lock();
            let slot = entries.touch(&tenant, Instant::now());
            self.inner.evict(&mut entries);
            slot
        };
        let built = slot
            .get_or_try_init(|| async { Ok(Live::new((self.inner.factory)(&tenant).await?)) })
            .await;
        let live = match built {
            Ok(live) => live,
            Err(error) => {
                self.inner.forget_failed(&tenant, &slot);
                return Err(error);
            }
        };
        let lease = live.lend(&tenant);
        // Evicted or rotated away while it was being built: this caller uses it once.
        if !self.inner.lock().is_current(&tenant, &slot) {
            self.inner.retire(tenant, slot);
        }
        Ok(lease)
    }

    /// Gives `tenant` the toolset `toolset` (one built with new credentials, say) from now on.
    /// The old one is closed once the calls that hold it are done.
    pub async fn rotate(&self, tenant: impl Into<TenantId>, toolset: McpToolset) {
        let tenant = tenant.into();
        let slot = Slot::new(Live::new(toolset).into());
        let mut entries = self.inner.lock();
        let old = entries.replace(&tenant, slot, Instant::now());
        self.inner.evict(&mut entries);
        drop(entries);
        if let Some(old) = old {
            self.inner.retire(tenant, old);
        }
    }

    /// Builds `tenant` a new toolset with the factory (which reads the tenant's latest
    /// credentials, say) and [`rotate`](Self::rotate)s to it.
    ///
    /// # Errors
    ///
    /// The factory's error; the tenant keeps the toolset it had.
    pub async fn rebuild(&self, tenant: impl Into<TenantId>) -> Result<(), ToolsetError> {
        let tenant = tenant.into();
        let toolset = (self.inner.factory)(&tenant).await?;
        self.rotate(tenant, toolset).await;
        Ok(())
    }

    /// Takes `tenant`'s toolset out of the cache, to be closed once its calls are done; the
    /// next [`get`](Self::get) builds a new one. Whether the tenant had one.
    pub fn evict(&self, tenant: impl Into<TenantId>) -> bool {
        let tenant = tenant.into();
        let Some(slot) = self.inner.lock().remove(&tenant) else {
            return false;
        };
        self.inner.retire(tenant, slot);
        true
    }

    /// How many tenants have a toolset, built or being built.
    pub fn len(&self) -> usize {
        self.inner.lock().len()
    }

    /// Whether no tenant has a toolset.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes every toolset out of the cache and waits until each one, and every one retired
    /// before, has closed (each after its leases are dropped, within the retire grace). The
    /// cache stays usable: a later `get` builds afresh.
    pub async fn close(&self) {
        let drained = self.inner.lock().drain();
        for (tenant, slot) in drained {
            self.inner.retire(tenant, slot);
        }
        self.inner.retiring.close();
        self.inner.retiring.wait().await;
        self.inner.retiring.reopen();
    }
}

impl fmt::Debug for TenantToolsets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TenantToolsets")
            .field("tenants", &self.len())
            .field("capacity", &self.inner.bounds.capacity)
            .field("idle", &self.inner.bounds.idle)
            .finish_non_exhaustive()
    }
}

impl Inner {
    fn new(factory: Factory, bounds: Bounds) -> Self {
        Self {
            entries: Mutex::default(),
            factory,
            bounds,
            retiring: TaskTracker::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Evicts the idle tenants now.
    fn evict_expired(&self) {
        self.evict(&mut self.lock());
    }

    /// Takes the idle and surplus tenants out of `entries` and retires them.
    fn evict(&self, entries: &mut Entries) {
        let evicted = entries.evict(Instant::now(), self.bounds.idle, self.bounds.capacity);
        for (tenant, slot) in evicted {
            self.retire(tenant, slot);
        }
    }

    /// Closes `slot`'s toolset in the background once its leases are done. A slot still being
    /// built has nothing to close yet; its build retires it when it finds itself evicted.
    /// Outside a runtime the toolset is only dropped, which closes it when its last lease goes.
    fn retire(&self, tenant: TenantId, slot: Slot) {
        if slot.get().is_none() || tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let grace = self.bounds.retire_grace;
        self.retiring.spawn(async move {
            if let Some(live) = slot.get() {
                live.retire(&tenant, grace).await;
            }
        });
    }

    /// Drops `tenant`'s empty slot after a failed build, unless another caller waits on it
    /// (and will build again).
    fn forget_failed(&self, tenant: &TenantId, slot: &Slot) {
        let mut entries = self.lock();
        // Slots are cloned only under this lock: the map's and ours means nobody else waits.
        if entries.is_current(tenant, slot) && slot.get().is_none() && Arc::strong_count(slot) == 2
        {
            entries.remove(tenant);
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        let drained = self.lock().drain();
        for (tenant, slot) in drained {
            self.retire(tenant, slot);
        }
    }
}
