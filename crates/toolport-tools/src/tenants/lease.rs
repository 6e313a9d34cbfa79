//! [`TenantToolset`]: a tenant's toolset as the cache lends it, and the retiring of a toolset
//! once its last borrower is done with it.

use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::watch;

use super::TenantId;
use crate::McpToolset;

/// A tenant's toolset, lent by [`TenantToolsets::get`](super::TenantToolsets::get). It derefs
/// to the [`McpToolset`].
///
/// While a lease (or a clone of it) lives, the toolset stays open: a rotation or an eviction
/// closes the old toolset only once its last lease is dropped (or the cache's
/// [`retire_grace`](super::TenantToolsetsBuilder::retire_grace) has passed). Hold the lease for
/// as long as you call the tools taken from it, and drop it when the request is done.
#[derive(Debug, Clone)]
pub struct TenantToolset {
    tenant: TenantId,
    toolset: Arc<McpToolset>,
    _in_use: watch::Receiver<()>,
}

impl TenantToolset {
    /// The tenant this toolset acts for.
    pub fn tenant(&self) -> &TenantId {
        &self.tenant
    }
}

impl Deref for TenantToolset {
    type Target = McpToolset;

    fn deref(&self) -> &McpToolset {
        &self.toolset
    }
}

/// A built toolset in the cache: the toolset, its count of leases, and whether it is retired.
#[derive(Debug)]
pub(super) struct Live {
    toolset: Arc<McpToolset>,
    /// Every lease holds a receiver; the sender sees when the last one is gone.
    in_use: watch::Sender<()>,
    retired: AtomicBool,
}

impl Live {
    pub(super) fn new(toolset: McpToolset) -> Self {
        let (in_use, _) = watch::channel(());
        Self {
            toolset: Arc::new(toolset),
            in_use,
            retired: AtomicBool::new(false),
        }
    }

    /// A lease on the toolset for `tenant`.
    pub(super) fn lend(&self, tenant: &TenantId) -> TenantToolset {
        TenantToolset {
            tenant: tenant.clone(),
            toolset: Arc::clone(&self.toolset),
            _in_use: self.in_use.subscribe(),
        }
    }

    /// Closes the toolset once no lease is left, or once `grace` has passed. Only the first
    /// call does anything, so an eviction and a rotation that race close it once.
    pub(super) async fn retire(&self, tenant: &TenantId, grace: Duration) {
        if self.retired.swap(true, Ordering::AcqRel) {
            return;
        }
        if tokio::time::timeout(grace, self.in_use.closed())
            .await
            .is_err()
        {
            tracing::debug!(%tenant, ?grace, "closing a retired toolset that is still lent out");
        }
        let exit = self.toolset.close().await;
        tracing::debug!(%tenant, %exit, "retired toolset closed");
    }
}
