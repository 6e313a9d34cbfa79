//! [`caller_context`]: ADK-Rust's read-only context as Toolport's.

use adk_core::ReadonlyContext as AdkContext;
use serde_json::{Map, Value};
use toolport_tools::ReadonlyContext;

/// ADK's context as Toolport's: the session state's entries (by key, so `role` and
/// `user:tier` read as they are written), then `user_id`, `session_id` and `app_name`, which
/// take the place of any state entry of the same name.
pub fn caller_context(context: &dyn AdkContext) -> ReadonlyContext {
    let mut entries: Vec<(String, Value)> = context
        .state()
        .map(|state| state.all().into_iter().collect())
        .unwrap_or_default();
    entries.sort_by(|left, right| left.0.cmp(&right.0));
    let mut state: Map<String, Value> = entries.into_iter().collect();
    state.insert("user_id".into(), context.user_id().into());
    state.insert("session_id".into(), context.session_id().into());
    state.insert("app_name".into(), context.app_name().into());
    ReadonlyContext::new(state)
}
