//! [`JoinedToolset`]: the tools of several toolsets offered as one, for what takes a single
//! toolset (a tool search layer, an agent framework's adapter).

use std::collections::HashSet;
use std::sync::Arc;

use crate::{ReadonlyContext, Tool, Toolset, ToolsetError};

/// Several toolsets as one: its tools are those of each toolset, in the order the toolsets were
/// given, listed for the caller on every call of [`tools`](Toolset::tools) (each toolset serves
/// its own cache on a warm turn). A name two of them offer is an error,
/// [`ToolsetError::DuplicateTool`], rather than a guess at which tool a call means; name one
/// toolset's tools with a prefix ([`ModelFit::namer`](crate::ModelFit::namer)) to keep them
/// apart. [`close`](Toolset::close) closes every toolset, one after another.
///
/// # Examples
///
/// ```
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use toolport_tools::{JoinedToolset, McpToolset, Toolset};
///
/// let reads = McpToolset::builder(toolport_testkit::task_tracker_connector())
///     .allow(["list_tasks"])
///     .build()
///     .await?;
/// let writes = McpToolset::builder(toolport_testkit::task_tracker_connector())
///     .allow(["add_task", "complete_task"])
///     .build()
///     .await?;
/// let joined = JoinedToolset::new([Arc::new(reads) as Arc<dyn Toolset>, Arc::new(writes)]);
/// let tools = joined.tools(None).await?;
/// let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
/// assert_eq!(names, ["list_tasks", "add_task", "complete_task"]);
/// joined.close().await;
/// # Ok(())
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(run()).unwrap();
/// ```
#[derive(Debug)]
pub struct JoinedToolset {
    toolsets: Vec<Arc<dyn Toolset>>,
}

impl JoinedToolset {
    /// The tools of `toolsets`, in their order, as one toolset.
    pub fn new(toolsets: impl IntoIterator<Item = Arc<dyn Toolset>>) -> Self {
        Self {
            toolsets: toolsets.into_iter().collect(),
        }
    }
}

#[async_trait::async_trait]
impl Toolset for JoinedToolset {
    /// Every toolset's tools for the caller, the first toolset's first.
    ///
    /// # Errors
    ///
    /// The first toolset's error, if one cannot list its tools;
    /// [`ToolsetError::DuplicateTool`] when two tools have the same name.
    async fn tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        let mut tools = Vec::new();
        for toolset in &self.toolsets {
            tools.extend(toolset.tools(context).await?);
        }
        let mut seen = HashSet::new();
        if let Some(tool) = tools.iter().find(|tool| !seen.insert(tool.name())) {
            return Err(ToolsetError::DuplicateTool {
                name: tool.name().to_owned(),
            });
        }
        Ok(tools)
    }

    async fn close(&self) {
        for toolset in &self.toolsets {
            toolset.close().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use toolport_testkit::task_tracker_connector;

    use super::*;
    use crate::names::ToolNamer;
    use crate::{McpToolset, ModelFit};

    async fn tracker(fit: ModelFit) -> Arc<dyn Toolset> {
        let toolset = McpToolset::builder(task_tracker_connector())
            .fit_to(fit)
            .build()
            .await
            .unwrap();
        Arc::new(toolset)
    }

    fn names(tools: &[Arc<dyn Tool>]) -> Vec<&str> {
        tools.iter().map(|tool| tool.name()).collect()
    }

    #[tokio::test]
    async fn a_name_two_toolsets_offer_is_an_error_until_a_prefix_keeps_them_apart() {
        let joined = JoinedToolset::new([
            tracker(ModelFit::default()).await,
            tracker(ModelFit::default()).await,
        ]);
        let error = joined.tools(None).await.unwrap_err();
        assert!(
            matches!(&error, ToolsetError::DuplicateTool { name } if name == "add_task"),
            "{error}"
        );
        assert!(error.is_permanent());
        joined.close().await;

        let work = ModelFit::default().namer(ToolNamer::default().prefix("work"));
        let joined = JoinedToolset::new([tracker(ModelFit::default()).await, tracker(work).await]);
        let tools = joined.tools(None).await.unwrap();
        assert_eq!(
            names(&tools),
            [
                "add_task",
                "complete_task",
                "list_tasks",
                "work__add_task",
                "work__complete_task",
                "work__list_tasks"
            ]
        );

        joined.close().await;
        for tool in [&tools[0], &tools[3]] {
            let call = tool.call(json!({"title": "Tag v1.2"}), None).await;
            assert!(call.is_err(), "{}: both toolsets are closed", tool.name());
        }
    }
}
