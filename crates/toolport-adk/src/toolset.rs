//! [`AdkToolset`]: a Toolport toolset as an ADK-Rust toolset.

use std::sync::Arc;

use adk_core::{AdkError, ReadonlyContext};
use toolport_tools::Toolset;
use toolport_tools::schema::Provider;

use crate::declaration::Declarations;
use crate::made_tools::MadeTools;
use crate::{AdkTool, ResultShape, caller_context};

/// Any Toolport [`Toolset`] as an ADK-Rust [`Toolset`](adk_core::Toolset): hand it to
/// `LlmAgentBuilder::toolset` as an `Arc`.
///
/// ADK asks for the tools before every model call, with its context, so the agent's tools
/// follow the servers (a list that changed, a server of a fleet that joined or left) and the
/// caller (a predicate sees [`caller_context`]). Declarations are adapted for Gemini, unless
/// [`provider`](Self::provider) picks another provider or
/// [`declarations_as_listed`](Self::declarations_as_listed) keeps the toolset's own (for a
/// toolset built with `McpToolsetBuilder::fit_to`). Each tool's ADK tool, declaration and
/// all, is made once and given again on every turn while the toolset still holds that tool; a
/// tool the toolset lists anew (its server's list changed) is made anew. Results are
/// [`ResultShape::PassThrough`] unless [`result_shape`](Self::result_shape) picks another.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
///
/// use adk_core::Toolset as _;
/// use toolport::McpToolset;
/// use toolport_adk::AdkToolset;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector()).build().await?;
/// let tools = AdkToolset::new(Arc::new(toolset)).named("tasks");
/// assert_eq!(tools.name(), "tasks");
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct AdkToolset {
    toolset: Arc<dyn Toolset>,
    name: String,
    declarations: Declarations,
    shape: ResultShape,
    made: MadeTools,
}

impl AdkToolset {
    /// The tools of `toolset`, named `toolport`, declared for Gemini, results passed through.
    pub fn new(toolset: Arc<dyn Toolset>) -> Self {
        Self {
            toolset,
            name: "toolport".into(),
            declarations: Declarations::for_provider(Provider::Gemini),
            shape: ResultShape::default(),
            made: MadeTools::default(),
        }
    }

    /// Names the toolset, as ADK lists it.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Adapts the declarations' schemas for `provider` instead of Gemini.
    #[must_use]
    pub fn provider(mut self, provider: Provider) -> Self {
        self.declarations = Declarations::for_provider(provider);
        self
    }

    /// Declares the tools as the Toolport toolset does, adapting nothing.
    #[must_use]
    pub fn declarations_as_listed(mut self) -> Self {
        self.declarations = Declarations::AsListed;
        self
    }

    /// What the model reads as each call's function response.
    #[must_use]
    pub fn result_shape(mut self, shape: ResultShape) -> Self {
        self.shape = shape;
        self
    }

    /// The Toolport toolset underneath.
    pub fn toolset(&self) -> &Arc<dyn Toolset> {
        &self.toolset
    }
}

#[async_trait::async_trait]
impl adk_core::Toolset for AdkToolset {
    fn name(&self) -> &str {
        &self.name
    }

    async fn tools(
        &self,
        context: Arc<dyn ReadonlyContext>,
    ) -> adk_core::Result<Vec<Arc<dyn adk_core::Tool>>> {
        let caller = caller_context(context.as_ref());
        let tools = self.toolset.tools(Some(&caller)).await.map_err(|error| {
            AdkError::tool(format!(
                "the toolset {} could not list its tools: {error}",
                self.name
            ))
        })?;
        Ok(self.made.of(tools, |tool| {
            let declaration = self.declarations.declare(tool.declaration())?;
            Some(
                Arc::new(AdkTool::new(Arc::clone(tool), declaration, self.shape))
                    as Arc<dyn adk_core::Tool>,
            )
        }))
    }
}
