//! [`AggregateCache`]: the aggregate's last answer, kept while every server's tool list is the
//! one it was made from, so a warm turn names nothing and copies no declaration again.

use std::sync::{Arc, Mutex, MutexGuard};

use toolport_tools::McpTool;

use crate::ManagedTool;

/// Each running server's id and the tools its toolset offered, as the aggregate read them.
pub(crate) type Listed = Vec<(Arc<str>, Vec<Arc<McpTool>>)>;

/// What an aggregate is made from: the id of every server the manager knows (a name claiming
/// one of them is renamed, running or not), and what the running ones [`Listed`].
#[derive(Debug)]
pub(crate) struct Source {
    pub(crate) ids: Vec<Arc<str>>,
    pub(crate) listed: Listed,
}

/// The last aggregate and what it was made from. A toolset hands out the same `Arc`s until its
/// list changes (a `list_changed`, a reconnect, another caller's filter), so comparing the
/// pointers tells a warm turn from a changed one.
#[derive(Debug, Default)]
pub(crate) struct AggregateCache {
    last: Mutex<Option<(Source, Vec<ManagedTool>)>>,
}

impl AggregateCache {
    /// The aggregate made from exactly `source`, if it is the last one made.
    pub(crate) fn get(&self, source: &Source) -> Option<Vec<ManagedTool>> {
        let last = self.lock();
        let (made_from, tools) = last.as_ref()?;
        let same = made_from.ids == source.ids && same_listing(&made_from.listed, &source.listed);
        same.then(|| tools.clone())
    }

    /// Keeps `tools`, made from `source`, as the last aggregate.
    pub(crate) fn put(&self, source: Source, tools: &[ManagedTool]) {
        *self.lock() = Some((source, tools.to_vec()));
    }

    fn lock(&self) -> MutexGuard<'_, Option<(Source, Vec<ManagedTool>)>> {
        // A plain value, valid even if a holder panicked.
        self.last.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Whether two listings hold the same servers, in order, with the very same tools.
fn same_listing(a: &Listed, b: &Listed) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((id_a, tools_a), (id_b, tools_b))| {
            id_a == id_b
                && tools_a.len() == tools_b.len()
                && tools_a.iter().zip(tools_b).all(|(x, y)| Arc::ptr_eq(x, y))
        })
}
