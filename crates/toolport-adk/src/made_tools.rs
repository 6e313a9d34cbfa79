//! [`MadeTools`]: the ADK tools an [`AdkToolset`](crate::AdkToolset) made of its toolset's
//! tools, kept while the toolset still holds those tools, so that a turn whose tools have not
//! changed declares none of them again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use toolport_tools::Tool;

/// What was made of one Toolport tool: its ADK tool, or `None` when it is left out (its
/// schema was refused, which was said once).
pub(crate) type Made = Option<Arc<dyn adk_core::Tool>>;

/// One Toolport tool, held, and what was made of it.
type Entry = (Arc<dyn Tool>, Made);

/// The ADK tools made so far, by Toolport tool.
#[derive(Default)]
pub(crate) struct MadeTools {
    /// Keyed by the address of the Toolport tool, which the entry holds, so that no other tool
    /// takes that address while the entry lives.
    by_tool: Mutex<HashMap<usize, Entry>>,
}

impl MadeTools {
    /// The ADK tools of `tools`, in their order: each made before is taken again, each other
    /// is made with `make`. A tool that only this cache still holds (its toolset listed it
    /// anew, or dropped it) is forgotten.
    pub(crate) fn of(
        &self,
        tools: Vec<Arc<dyn Tool>>,
        make: impl Fn(&Arc<dyn Tool>) -> Made,
    ) -> Vec<Arc<dyn adk_core::Tool>> {
        let mut by_tool = self.by_tool.lock().unwrap_or_else(|e| e.into_inner());
        by_tool.retain(|_, (tool, _)| Arc::strong_count(tool) > 1);
        tools
            .into_iter()
            .filter_map(|tool| {
                let key = Arc::as_ptr(&tool).cast::<()>() as usize;
                let (_, made) = by_tool.entry(key).or_insert_with(|| {
                    let made = make(&tool);
                    (tool, made)
                });
                made.clone()
            })
            .collect()
    }
}

impl std::fmt::Debug for MadeTools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let made = self.by_tool.lock().map_or(0, |by_tool| by_tool.len());
        f.debug_struct("MadeTools").field("made", &made).finish()
    }
}
