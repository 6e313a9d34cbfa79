//! [`listed`]: one copy of each listed tool for the whole process, so sessions that list the
//! same tools (a fleet's, a tenant cache's) share their definitions and declarations.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, LazyLock, Mutex, Weak};

use crate::{ToolDeclaration, ToolDefinition};

/// A tool as a server listed it, and the declaration made from it unchanged. Shared by every
/// [`McpTool`](crate::McpTool) of an equal listing, whatever its session.
#[derive(Debug)]
pub(crate) struct ListedTool {
    pub(crate) definition: Arc<ToolDefinition>,
    pub(crate) declaration: Arc<ToolDeclaration>,
}

/// The listed tools alive anywhere in the process, by a hash of their content. Dead entries are
/// swept when the table has doubled since the last sweep, so it holds at most about twice as
/// many entries as there were live tools then (and never fewer than [`MIN_SWEEP`]).
struct Table {
    by_content: HashMap<u64, Weak<ListedTool>>,
    sweep_at: usize,
}

static TABLE: LazyLock<Mutex<Table>> = LazyLock::new(|| {
    Mutex::new(Table {
        by_content: HashMap::new(),
        sweep_at: MIN_SWEEP,
    })
});

/// The table size below which it is never swept.
const MIN_SWEEP: usize = 64;

/// The one live copy of `definition`: the copy another session already holds when it listed
/// an equal tool, else a new one. A hash that matches an unequal tool gets a copy of its own.
pub(crate) fn listed(definition: ToolDefinition) -> Arc<ListedTool> {
    let hash = content_hash(&definition);
    if let Some(existing) = live_copy(hash, &definition) {
        return existing;
    }
    // Made outside the lock: it copies the schemas, and every session's listing takes the lock.
    let tool = Arc::new(fresh(definition));
    let mut table = lock();
    match table.by_content.get(&hash).and_then(Weak::upgrade) {
        // Another session listed it meanwhile.
        Some(existing) if existing.definition == tool.definition => return existing,
        // A hash that matches an unequal tool: this copy stays its own.
        Some(_) => return tool,
        None => {}
    }
    table.by_content.insert(hash, Arc::downgrade(&tool));
    if table.by_content.len() >= table.sweep_at {
        table.by_content.retain(|_, tool| tool.strong_count() > 0);
        table.sweep_at = (table.by_content.len() * 2).max(MIN_SWEEP);
    }
    tool
}

/// The live copy of an equal tool under `hash`, if there is one.
fn live_copy(hash: u64, definition: &ToolDefinition) -> Option<Arc<ListedTool>> {
    let existing = lock().by_content.get(&hash).and_then(Weak::upgrade)?;
    (*existing.definition == *definition).then_some(existing)
}

fn lock() -> std::sync::MutexGuard<'static, Table> {
    // The table holds only weak pointers, valid even if a holder panicked.
    TABLE.lock().unwrap_or_else(|e| e.into_inner())
}

fn fresh(definition: ToolDefinition) -> ListedTool {
    ListedTool {
        declaration: Arc::new(ToolDeclaration::from_mcp(&definition)),
        definition: Arc::new(definition),
    }
}

/// A hash of what tells tools apart: the name, the descriptions and the schemas, hashed as
/// they are, without writing them out as JSON. Tools equal in these that differ elsewhere (in
/// annotations, icons or `_meta`) share a hash, and the equality check in [`listed`] keeps them
/// apart.
fn content_hash(definition: &ToolDefinition) -> u64 {
    let mut hasher = DefaultHasher::new();
    definition.name.hash(&mut hasher);
    definition.title.hash(&mut hasher);
    definition.description.hash(&mut hasher);
    definition.input_schema.hash(&mut hasher);
    definition.output_schema.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use rmcp::model::ToolAnnotations;
    use serde_json::json;

    use super::*;

    fn tool(description: &str) -> ToolDefinition {
        serde_json::from_value(json!({
            "name": "get_invoice",
            "description": description,
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
        }))
        .unwrap()
    }

    #[test]
    fn equal_listings_share_one_copy_and_different_ones_do_not() {
        let first = listed(tool("Gets one invoice."));
        let second = listed(tool("Gets one invoice."));
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(second.declaration.description, "Gets one invoice.");

        let other = listed(tool("Gets an invoice."));
        assert!(!Arc::ptr_eq(&first, &other));
        assert_eq!(other.declaration.description, "Gets an invoice.");
    }

    #[test]
    fn tools_that_differ_only_in_what_the_hash_leaves_out_stay_apart() {
        let plain = listed(tool("Gets one invoice, plainly."));
        let mut annotated = tool("Gets one invoice, plainly.");
        annotated.annotations = Some(ToolAnnotations::new().read_only(true));
        let annotated = listed(annotated);
        assert!(!Arc::ptr_eq(&plain, &annotated));
        assert_eq!(plain.definition.annotations, None);
        let read_only = annotated.definition.annotations.as_ref();
        assert_eq!(read_only.and_then(|a| a.read_only_hint), Some(true));
    }

    #[test]
    fn tools_nobody_holds_are_swept_away() {
        let held: Vec<_> = (0..1_000)
            .map(|n| listed(tool(&format!("Held tool {n}."))))
            .collect();
        drop(held);
        // Each listed and dropped at once: without sweeps the table would reach 3,000.
        for n in 0..2_000 {
            let passing = listed(tool(&format!("Passing tool {n}.")));
            assert_eq!(
                passing.declaration.description,
                format!("Passing tool {n}.")
            );
        }
        let table = lock();
        // Other tests of this binary may hold a few tools of their own.
        assert!(
            table.by_content.len() <= 2_100,
            "{} entries",
            table.by_content.len()
        );
    }
}
