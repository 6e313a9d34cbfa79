//! [`CallerContext`]: the caller's state, carried to Toolport through rig's tool context.

use rig_core::tool::{ContextValue, ToolContext};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toolport_tools::ReadonlyContext;

/// The caller's state (user, tenant, role, an idempotency key), as a value of rig's
/// [`ToolContext`]. Put it in the run's context with `AgentRunner::tool_context`; each tool call
/// hands it to the Toolport tool as its [`ReadonlyContext`], where predicates, header providers
/// and idempotency layers read it. It never reaches the model.
///
/// # Examples
///
/// ```
/// use rig_core::tool::ToolContext;
/// use serde_json::json;
/// use toolport_rig::CallerContext;
///
/// let mut context = ToolContext::new();
/// context.insert(CallerContext::from_json(json!({"user": "ada", "role": "admin"})))?;
/// let caller = CallerContext::of(&context)?.unwrap();
/// assert_eq!(caller.get("user"), Some(&json!("ada")));
/// # Ok::<(), rig_core::tool::ToolContextError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CallerContext(pub Map<String, Value>);

impl ContextValue for CallerContext {
    const KEY: &'static str = "toolport.caller";
}

impl CallerContext {
    /// The context of a JSON object; any other JSON value gives an empty state.
    pub fn from_json(state: Value) -> Self {
        match state {
            Value::Object(state) => Self(state),
            _ => Self::default(),
        }
    }

    /// The caller's state in `context`, as Toolport reads it; `None` when the run set none.
    ///
    /// # Errors
    ///
    /// When the slot holds something that is not a state map.
    pub fn of(
        context: &ToolContext,
    ) -> Result<Option<ReadonlyContext>, rig_core::tool::ToolContextError> {
        Ok(context.get::<Self>()?.map(Self::into_readonly))
    }

    /// The state as Toolport's [`ReadonlyContext`].
    pub fn into_readonly(self) -> ReadonlyContext {
        ReadonlyContext::new(self.0)
    }
}

impl From<&ReadonlyContext> for CallerContext {
    fn from(context: &ReadonlyContext) -> Self {
        Self(context.state().clone())
    }
}
