//! A toolset over a fake [`ToolSession`], with no connector and no server: the listing, its
//! cache, the filter, a result mapper of the caller's own, the layers, the idempotent retry and
//! the `load_resource` tool all run against what the fake answers.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, ErrorData, ReadResourceResult,
    ResourceContents,
};
use serde_json::{Value, json};
use toolport_core::{ReadonlyContext, ServerExit};
use toolport_session::{CallOptions, Listing, SessionError};
use toolport_tools::{
    BeforeCallLayer, Decision, Idempotency, Mapping, MappingError, McpToolset, ReplayPolicy,
    ResultMapper, Tool, ToolCall, ToolDefinition, ToolOutput, ToolSession,
};

/// A server of three tools whose `flaky` times out on its first call, and whose resources are
/// `memo://greeting` alone. It counts listings and records every call.
#[derive(Debug, Default)]
struct FakeServer {
    epoch: AtomicU64,
    listings: AtomicU64,
    calls: Mutex<Vec<CallToolRequestParams>>,
}

impl FakeServer {
    fn calls(&self) -> Vec<CallToolRequestParams> {
        self.calls.lock().unwrap().clone()
    }
}

fn tool(name: &str) -> ToolDefinition {
    let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}});
    let Value::Object(schema) = schema else {
        unreachable!("a JSON object")
    };
    ToolDefinition::new(name.to_owned(), format!("The {name} tool."), schema)
}

#[async_trait::async_trait]
impl ToolSession for FakeServer {
    fn target(&self) -> &str {
        "fake"
    }

    async fn connect(&self) -> Result<(), SessionError> {
        Ok(())
    }

    fn tool_list_epoch(&self) -> u64 {
        self.epoch.load(Ordering::SeqCst)
    }

    async fn tool_listing(
        &self,
        _context: Option<&ReadonlyContext>,
    ) -> Result<Listing<ToolDefinition>, SessionError> {
        self.listings.fetch_add(1, Ordering::SeqCst);
        Ok(Listing::new(vec![
            tool("echo"),
            tool("flaky"),
            tool("delete"),
        ]))
    }

    fn offers_resources(&self) -> bool {
        true
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        _options: CallOptions,
    ) -> Result<CallToolResult, SessionError> {
        let first_of_its_name = {
            let mut calls = self.calls.lock().unwrap();
            let first = !calls.iter().any(|call| call.name == params.name);
            calls.push(params.clone());
            first
        };
        match params.name.as_ref() {
            "flaky" if first_of_its_name => Err(SessionError::request_timeout(
                "fake",
                "tools/call flaky",
                Duration::from_secs(30),
            )),
            _ => {
                let text = params
                    .arguments
                    .and_then(|arguments| arguments.get("text").cloned())
                    .unwrap_or(Value::Null);
                Ok(CallToolResult::success(vec![ContentBlock::text(
                    text.as_str().unwrap_or("done"),
                )]))
            }
        }
    }

    async fn read_resource_for(
        &self,
        uri: &str,
        _context: Option<&ReadonlyContext>,
    ) -> Result<ReadResourceResult, SessionError> {
        if uri == "memo://greeting" {
            let contents = ResourceContents::text("hello", uri);
            return Ok(ReadResourceResult::new(vec![contents]));
        }
        let refusal = ErrorData::resource_not_found(format!("no resource {uri}"), None);
        Err(SessionError::rpc("fake", "resources/read", refusal))
    }

    async fn close(&self) -> ServerExit {
        ServerExit::Disconnected
    }
}

#[tokio::test]
async fn a_toolset_lists_filters_and_calls_through_a_fake_session() {
    let toolset = McpToolset::with_session(FakeServer::default())
        .allow(["echo", "flaky"])
        .build()
        .await
        .unwrap();

    let names: Vec<String> = toolset
        .tools(None)
        .await
        .unwrap()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect();
    assert_eq!(names, ["echo", "flaky"]);

    let echo = toolset.tool("echo", None).await.unwrap();
    let output = echo.call(json!({"text": "hi"}), None).await.unwrap();
    assert_eq!(output.value, "hi");

    let calls = toolset.session().calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name, "echo");
}

/// A mapper of the caller's own: the rich preset's value, shouted.
#[derive(Debug)]
struct Shouting;

impl ResultMapper for Shouting {
    fn map(&self, result: &CallToolResult) -> Result<ToolOutput, MappingError> {
        let mut output = Mapping::Rich.map(result)?;
        output.value = json!(output.value.as_str().unwrap_or_default().to_uppercase());
        Ok(output)
    }
}

#[tokio::test]
async fn the_model_reads_what_a_mapper_of_the_callers_own_makes_of_a_result() {
    let toolset = McpToolset::with_session(FakeServer::default())
        .mapping(Shouting)
        .build()
        .await
        .unwrap();
    let echo = toolset.tool("echo", None).await.unwrap();
    let output = echo.call(json!({"text": "hi"}), None).await.unwrap();
    assert_eq!(output.value, "HI");
}

#[tokio::test]
async fn the_cache_keeps_a_list_until_the_fake_moves_its_epoch() {
    let toolset = McpToolset::with_session(FakeServer::default())
        .build()
        .await
        .unwrap();
    toolset.tools(None).await.unwrap();
    toolset.tools(None).await.unwrap();
    assert_eq!(toolset.session().listings.load(Ordering::SeqCst), 1);

    toolset.session().epoch.fetch_add(1, Ordering::SeqCst);
    toolset.tools(None).await.unwrap();
    assert_eq!(toolset.session().listings.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_timeout_from_the_fake_is_retried_with_the_same_idempotency_key() {
    let toolset = McpToolset::with_session(FakeServer::default())
        .replay(ReplayPolicy::default().idempotent("flaky", Idempotency::meta("idempotencyKey")))
        .build()
        .await
        .unwrap();
    let flaky = toolset.tool("flaky", None).await.unwrap();

    let output = flaky.call(json!({"text": "once"}), None).await.unwrap();

    assert_eq!(output.value, "once");
    let keys: Vec<Value> = toolset
        .session()
        .calls()
        .iter()
        .map(|call| call.meta.as_ref().unwrap().0["idempotencyKey"].clone())
        .collect();
    assert_eq!(keys.len(), 2, "the timed-out call is sent again once");
    assert!(keys[0].is_string());
    assert_eq!(keys[0], keys[1]);
}

#[tokio::test]
async fn a_layer_answers_before_the_fake_is_called() {
    let deny_deletes = BeforeCallLayer::new(|call: &ToolCall| {
        let deleting = call.name == "delete";
        async move {
            if deleting {
                Decision::deny("deletes are off")
            } else {
                Decision::Approve
            }
        }
    });
    let toolset = McpToolset::with_session(FakeServer::default())
        .layer(deny_deletes)
        .build()
        .await
        .unwrap();
    let delete = toolset.tool("delete", None).await.unwrap();

    let output = delete.call(json!({}), None).await.unwrap();

    assert!(output.is_error);
    assert!(toolset.session().calls().is_empty());
}

#[tokio::test]
async fn load_resource_reads_from_the_fake_and_reports_its_refusal_to_the_model() {
    let toolset = McpToolset::with_session(FakeServer::default())
        .load_resource_tool("load_resource")
        .build()
        .await
        .unwrap();
    let tools = toolset.tools(None).await.unwrap();
    let load_resource = tools
        .iter()
        .find(|tool| tool.name() == "load_resource")
        .expect("offered, as the fake publishes resources");

    let read = load_resource
        .call(json!({"uri": "memo://greeting"}), None)
        .await
        .unwrap();
    assert!(!read.is_error);
    assert!(read.value.to_string().contains("hello"), "{}", read.value);

    let refused = load_resource
        .call(json!({"uri": "memo://missing"}), None)
        .await
        .unwrap();
    assert!(refused.is_error);
    assert_eq!(refused.value["error"], "no resource memo://missing");
}
