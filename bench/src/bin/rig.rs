//! `toolport-bench-rig`: Toolport through its rig adapter, as a rig agent's turn meets it. The
//! toolset's tools (fitted to Gemini) are installed once in rig's tool server
//! ([`RigToolset::install`]); each turn asks the tool server for the definitions it offers the
//! model and runs `echo` there, with the arguments as the model's JSON text
//! ([`ToolServerHandle::execute`]). Only the `turn` workload is compared.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use rig_agent::tool::server::{ToolServer, ToolServerHandle};
use rig_core::tool::ToolContext;
use toolport::McpToolset;
use toolport::schema::Provider;
use toolport_bench::ECHO_TEXT;
use toolport_bench::args::Args;
use toolport_bench::drive::Client;
use toolport_rig::RigToolset;

/// A toolset, and rig's tool server holding its tools.
struct Rig {
    toolset: Arc<McpToolset>,
    tools: ToolServerHandle,
    /// `echo`'s arguments, as a model sends them.
    arguments: String,
}

impl Client for Rig {
    const NAME: &'static str = "toolport-rig";

    async fn connect(args: Arc<Args>) -> Result<Self> {
        let toolset =
            Arc::new(toolport_bench::adapted::toolset(&args, Some(Provider::Gemini)).await?);
        let tools = ToolServer::new().run();
        RigToolset::new(toolset.clone()).install(&tools).await?;
        let arguments = serde_json::json!({ args.arg.as_str(): ECHO_TEXT }).to_string();
        Ok(Self {
            toolset,
            tools,
            arguments,
        })
    }

    async fn tools(&self) -> Result<usize> {
        Ok(self.tools.tool_defs(None).await?.len())
    }

    async fn echo(&self) -> Result<()> {
        let mut context = ToolContext::default();
        let result = self
            .tools
            .execute("echo", &self.arguments, &mut context)
            .await;
        anyhow::ensure!(result.is_success(), "echo failed: {:?}", result.error());
        Ok(())
    }

    async fn close(self) -> Result<()> {
        self.toolset.close().await;
        Ok(())
    }
}

fn main() -> ExitCode {
    toolport_bench::entry::main::<Rig>()
}
