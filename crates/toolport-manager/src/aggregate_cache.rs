//! [`AggregateCache`]: the aggregate's last answer, kept while every server's tool list is the
//! one it was made from, so a warm turn names nothing and copies no declaration again.

use std::sync::{Arc, Mutex, MutexGuard};

use toolport_tools::{McpTool, Tool};

use crate::ManagedTool;

/// One aggregate: the tools, and the same as the `Toolset` hands them out. A warm turn gets the
/// very same `Arc`s again, so a layer over the manager (tool search, say) tells an unchanged
/// list by its pointers.
#[derive(Debug)]
pub(crate) struct Aggregate {
    pub(crate) managed: Vec<ManagedTool>,
    pub(crate) offered: Vec<Arc<dyn Tool>>,
}

impl Aggregate {
    pub(crate) fn new(managed: Vec<ManagedTool>) -> Self {
        let offered = managed
            .iter()
            .map(|tool| Arc::new(tool.clone()) as Arc<dyn Tool>)
            .collect();
        Self { managed, offered }
    }
}

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
    last: Mutex<Option<(Source, Arc<Aggregate>)>>,
}

impl AggregateCache {
    /// The aggregate made from exactly `source`, if it is the last one made.
    pub(crate) fn get(&self, source: &Source) -> Option<Arc<Aggregate>> {
        let last = self.lock();
        let (made_from, aggregate) = last.as_ref()?;
        let same = made_from.ids == source.ids && same_listing(&made_from.listed, &source.listed);
        same.then(|| Arc::clone(aggregate))
    }

    /// Keeps `aggregate`, made from `source`, as the last one.
    pub(crate) fn put(&self, source: Source, aggregate: &Arc<Aggregate>) {
        *self.lock() = Some((source, Arc::clone(aggregate)));
    }

    fn lock(&self) -> MutexGuard<'_, Option<(Source, Arc<Aggregate>)>> {
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
