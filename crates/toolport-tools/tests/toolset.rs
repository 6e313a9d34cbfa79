//! `McpToolset` against in-process fixture servers: declarations, filters, strictness, the
//! tool-list cache, replay rules and result mapping.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{ClientRequest, GetExtensions as _, JsonRpcMessage};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::json;
use toolport_core::{BoxedTransport, ConnectContext, ConnectError, Connection, Connector};
use toolport_fixtures::LabServer;
use toolport_session::{CallReplay, McpSession, ServerEvent};
use toolport_testkit::{DuplexConnector, bounded, task_tracker_connector};
use toolport_tools::{
    ListCaching, Mapping, McpToolset, MediaPart, ReadonlyContext, ReplayPolicy, Tool,
    ToolDeclaration, ToolsetError,
};

/// Counts the `tools/list` requests that pass through to the server, and records the caller
/// contexts that requests carry.
#[derive(Debug)]
struct CountingConnector {
    inner: DuplexConnector,
    tool_lists: Arc<AtomicUsize>,
    contexts: Arc<Mutex<Vec<ReadonlyContext>>>,
}

struct CountingTransport {
    inner: BoxedTransport,
    tool_lists: Arc<AtomicUsize>,
    contexts: Arc<Mutex<Vec<ReadonlyContext>>>,
}

impl Transport<RoleClient> for CountingTransport {
    type Error = toolport_core::TransportError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let JsonRpcMessage::Request(request) = &item {
            if matches!(request.request, ClientRequest::ListToolsRequest(_)) {
                self.tool_lists.fetch_add(1, Ordering::SeqCst);
            }
            if let Some(context) = request.request.extensions().get::<ReadonlyContext>() {
                self.contexts.lock().unwrap().push(context.clone());
            }
        }
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[async_trait::async_trait]
impl Connector for CountingConnector {
    async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
        let connection = self.inner.connect(context).await?;
        Ok(Connection::new(BoxedTransport::new(CountingTransport {
            inner: connection.transport,
            tool_lists: self.tool_lists.clone(),
            contexts: self.contexts.clone(),
        })))
    }

    fn target(&self) -> String {
        self.inner.target()
    }
}

fn counting_lab() -> (CountingConnector, Arc<AtomicUsize>) {
    let tool_lists = Arc::new(AtomicUsize::new(0));
    let connector = CountingConnector {
        inner: DuplexConnector::new(LabServer::new),
        tool_lists: tool_lists.clone(),
        contexts: Arc::default(),
    };
    (connector, tool_lists)
}

fn named<'a>(tools: &'a [Arc<dyn Tool>], name: &str) -> &'a Arc<dyn Tool> {
    tools.iter().find(|tool| tool.name() == name).unwrap()
}

#[tokio::test]
async fn declarations_pass_the_server_metadata_through_unchanged() {
    let session = McpSession::new(task_tracker_connector());
    let listed = session.list_tools().await.unwrap();
    let toolset = McpToolset::builder(task_tracker_connector())
        .build()
        .await
        .unwrap();

    let tools = toolset.tools(None).await.unwrap();

    assert_eq!(tools.len(), listed.len());
    for server_tool in &listed {
        let declaration: &ToolDeclaration = named(&tools, &server_tool.name).declaration();
        assert_eq!(
            declaration.description,
            server_tool.description.as_deref().unwrap()
        );
        assert_eq!(
            declaration.parameters,
            serde_json::Value::Object((*server_tool.input_schema).clone())
        );
        assert_eq!(
            declaration.response,
            server_tool
                .output_schema
                .as_ref()
                .map(|schema| serde_json::Value::Object((**schema).clone()))
        );
    }
    let complete = named(&tools, "complete_task").declaration();
    assert_eq!(
        complete.parameters["properties"]["task_id"]["pattern"],
        "^T-\\d+$"
    );
    session.close().await;
    toolset.close().await;
}

#[tokio::test]
async fn an_allowlist_limits_the_tools() {
    let toolset = McpToolset::builder(task_tracker_connector())
        .allow(["list_tasks"])
        .build()
        .await
        .unwrap();

    let tools = toolset.tools(None).await.unwrap();

    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert_eq!(names, ["list_tasks"]);
    toolset.close().await;
}

#[tokio::test]
async fn a_strict_allowlist_fails_at_build_when_a_name_is_missing() {
    let error = McpToolset::builder(task_tracker_connector())
        .allow(["list_tasks", "delete_task"])
        .strict(true)
        .build()
        .await
        .unwrap_err();

    assert!(
        matches!(&error, ToolsetError::MissingTools { missing, .. } if missing == &["delete_task"]),
        "{error}"
    );
    assert!(error.is_permanent());
    let message = error.to_string();
    assert!(
        message.contains("delete_task") && message.contains("add_task"),
        "{message}"
    );
}

#[tokio::test]
async fn session_settings_for_a_shared_session_fail_the_build_instead_of_doing_nothing() {
    let session = McpSession::new(task_tracker_connector());
    let error = McpToolset::with_session(session.clone())
        .session(|session| {
            session
                .timeouts(toolport_core::Timeouts::default())
                .protocol_version(rmcp::model::ProtocolVersion::V_2025_11_25)
        })
        .build()
        .await
        .unwrap_err();

    assert!(matches!(&error, ToolsetError::SessionSettings), "{error}");
    assert!(error.is_permanent());
    assert_eq!(
        error.to_string(),
        "session settings given to a toolset built with_session, whose session is built already: set them on the session's builder (McpSession::builder) instead"
    );
    // Without them, the shared session serves the toolset.
    let toolset = McpToolset::with_session(session).build().await.unwrap();
    assert_eq!(toolset.tools(None).await.unwrap().len(), 3);
    toolset.close().await;
}

#[tokio::test]
async fn a_predicate_hides_write_tools_from_read_only_users() {
    let toolset = McpToolset::builder(task_tracker_connector())
        .filter(
            |tool: &rmcp::model::Tool, context: Option<&ReadonlyContext>| {
                let viewer = context.is_some_and(|c| c.get("role").is_some_and(|r| r == "viewer"));
                !viewer
                    || tool
                        .annotations
                        .as_ref()
                        .is_some_and(|a| a.read_only_hint == Some(true))
            },
        )
        .build()
        .await
        .unwrap();
    let viewer = ReadonlyContext::from_json(json!({"role": "viewer"}));
    let editor = ReadonlyContext::from_json(json!({"role": "editor"}));

    let for_viewer = toolset.tools(Some(&viewer)).await.unwrap();
    let for_editor = toolset.tools(Some(&editor)).await.unwrap();

    let viewer_names: Vec<&str> = for_viewer.iter().map(|tool| tool.name()).collect();
    assert_eq!(viewer_names, ["list_tasks"]);
    assert_eq!(for_editor.len(), 3);
    toolset.close().await;
}

#[tokio::test]
async fn the_tool_list_is_cached_until_the_server_says_it_changed() {
    let (connector, tool_lists) = counting_lab();
    let toolset = McpToolset::builder(connector).build().await.unwrap();

    let tools = toolset.tools(None).await.unwrap();
    toolset.tools(None).await.unwrap();
    let warm = toolset.tools(None).await.unwrap();
    assert_eq!(
        tool_lists.load(Ordering::SeqCst),
        1,
        "warm turns make no round trip"
    );
    assert!(!tools.is_empty() && tools.len() == warm.len());
    assert!(
        tools
            .iter()
            .zip(&warm)
            .all(|(first, again)| Arc::ptr_eq(first, again)),
        "a warm turn hands out the tools wrapped once"
    );

    let mut events = toolset.session().events();
    named(&tools, "notify_tools_changed")
        .call(json!({}), None)
        .await
        .unwrap();
    let changed = bounded("tools/list_changed", async {
        while let Some(event) = events.next().await {
            if matches!(event, ServerEvent::ToolListChanged) {
                return true;
            }
        }
        false
    });
    assert!(changed.await, "the server announced the change");
    toolset.tools(None).await.unwrap();
    assert_eq!(
        tool_lists.load(Ordering::SeqCst),
        2,
        "list_changed invalidated the cache"
    );

    toolset.refresh();
    toolset.tools(None).await.unwrap();
    assert_eq!(
        tool_lists.load(Ordering::SeqCst),
        3,
        "refresh forces a new list"
    );
    toolset.close().await;
}

#[tokio::test]
async fn the_reference_behaviour_lists_on_every_turn() {
    let (connector, tool_lists) = counting_lab();
    let toolset = McpToolset::builder(connector)
        .list_caching(ListCaching::every_turn())
        .build()
        .await
        .unwrap();

    for _ in 0..3 {
        toolset.tools(None).await.unwrap();
    }

    assert_eq!(tool_lists.load(Ordering::SeqCst), 3);
    toolset.close().await;
}

#[tokio::test]
async fn only_read_only_or_idempotent_tools_are_replayed_unless_opted_in() {
    let toolset = McpToolset::builder(task_tracker_connector())
        .build()
        .await
        .unwrap();
    let replay =
        async |toolset: &McpToolset, name: &str| toolset.tool(name, None).await.unwrap().replay();

    assert_eq!(
        replay(&toolset, "list_tasks").await,
        CallReplay::OnConnectionLoss
    );
    assert_eq!(
        replay(&toolset, "complete_task").await,
        CallReplay::OnConnectionLoss
    );
    assert_eq!(replay(&toolset, "add_task").await, CallReplay::Never);
    toolset.close().await;

    let opted_in = McpToolset::builder(task_tracker_connector())
        .replay(ReplayPolicy::all_calls())
        .build()
        .await
        .unwrap();
    assert_eq!(
        replay(&opted_in, "add_task").await,
        CallReplay::OnConnectionLoss
    );
    opted_in.close().await;
}

#[tokio::test]
async fn results_are_mapped_by_the_chosen_preset() {
    let rich = McpToolset::builder(DuplexConnector::new(LabServer::new))
        .build()
        .await
        .unwrap();
    let tools = rich.tools(None).await.unwrap();
    let image = named(&tools, "get_image")
        .call(json!({}), None)
        .await
        .unwrap();
    assert!(
        matches!(&image.parts[..], [MediaPart::Image { mime_type, .. }] if mime_type == "image/png")
    );
    let sum = named(&tools, "add")
        .call(json!({"a": 2, "b": 3}), None)
        .await
        .unwrap();
    assert_eq!(sum.value, json!({"sum": 5}));
    rich.close().await;

    let adk = McpToolset::builder(DuplexConnector::new(LabServer::new))
        .mapping(Mapping::AdkJava)
        .build()
        .await
        .unwrap();
    let tools = adk.tools(None).await.unwrap();
    let echo = named(&tools, "echo")
        .call(json!({"text": "hi"}), None)
        .await
        .unwrap();
    assert_eq!(echo.value, json!({"text_output": [{"text": "hi"}]}));
    adk.close().await;
}

#[tokio::test]
async fn arguments_must_be_a_json_object() {
    let toolset = McpToolset::builder(task_tracker_connector())
        .build()
        .await
        .unwrap();
    let tools = toolset.tools(None).await.unwrap();

    let error = named(&tools, "list_tasks")
        .call(json!([1, 2]), None)
        .await
        .unwrap_err();

    assert_eq!(
        error.to_string(),
        "invalid arguments for list_tasks: expected a JSON object, got an array"
    );
    toolset.close().await;
}

#[tokio::test]
async fn the_callers_context_reaches_the_transport_but_not_the_wire() {
    let (connector, _) = counting_lab();
    let contexts = connector.contexts.clone();
    let toolset = McpToolset::builder(connector).build().await.unwrap();
    let alice = ReadonlyContext::from_json(json!({"user_id": "alice"}));

    let tools = toolset.tools(Some(&alice)).await.unwrap();
    let echo = named(&tools, "echo")
        .call(json!({"text": "hi"}), Some(&alice))
        .await
        .unwrap();

    assert_eq!(
        echo.value,
        json!({"text": "hi"}),
        "the server saw only the arguments"
    );
    let seen = contexts.lock().unwrap().clone();
    assert_eq!(
        seen,
        vec![alice.clone(), alice],
        "tools/list and tools/call carried it"
    );
    toolset.close().await;
}
