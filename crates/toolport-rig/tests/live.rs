//! The agent's tools follow a live toolset, a transport failure stops the run, and the
//! caller's context reaches the toolset.

mod common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use common::{agent, ask, call, installed_tasks_tools, replay, tasks_server, tool_server};
use rig_agent::tool::server::ToolServerHandle;
use rig_core::test_utils::MockTurn;
use rig_core::tool::ToolContext;
use serde_json::{Value, json};
use tokio_stream::wrappers::BroadcastStream;
use toolport::manager::{McpServerManager, ServerConfig};
use toolport::{BeforeCallLayer, Decision, McpToolset, ReadonlyContext, ToolCall, ToolDefinition};
use toolport_fixtures::BulletinBoard;
use toolport_rig::{CallerContext, LiveTools, RigToolset, tool_list_changes};
use toolport_testkit::DuplexConnector;

fn names(tools: &ToolServerHandle) -> BTreeSet<String> {
    tools
        .static_tool_defs()
        .into_iter()
        .map(|definition| definition.name.to_string())
        .collect()
}

/// Waits until the agent's tools are `expected`, one reconcile at a time.
async fn until_tools(live: &LiveTools, tools: &ToolServerHandle, expected: &[&str]) {
    let expected: BTreeSet<String> = expected.iter().map(|name| (*name).to_owned()).collect();
    let mut reconciles = live.reconciles();
    while names(tools) != expected {
        reconciles.changed().await.unwrap();
    }
}

fn fixture(args: &[&str]) -> ServerConfig {
    ServerConfig::stdio(toolport_fixtures::fixture_binary().display().to_string())
        .args(args.iter().copied())
}

#[tokio::test]
async fn the_agents_tools_follow_a_servers_list_as_it_changes() {
    let board = BulletinBoard::new();
    let connector = DuplexConnector::new({
        let board = board.clone();
        move || board.server()
    });
    let toolset = Arc::new(McpToolset::builder(connector).build().await.unwrap());
    let tools = tool_server();
    let changes = tool_list_changes(toolset.session().events());
    let live = LiveTools::start(RigToolset::new(toolset.clone()), tools.clone(), changes)
        .await
        .unwrap();
    assert_eq!(names(&tools), BTreeSet::from(["read_board".to_owned()]));

    board.add_tool("pin_note").await;

    until_tools(&live, &tools, &["pin_note", "read_board"]).await;
    toolset.close().await;
}

#[tokio::test]
async fn the_agents_tools_follow_servers_that_join_and_leave_the_fleet() {
    let manager = Arc::new(McpServerManager::builder().build());
    manager.add("tasks", fixture(&["tasks"])).unwrap();
    manager.start("tasks").await.unwrap();
    let tools = tool_server();
    let changes = BroadcastStream::new(manager.subscribe());
    let live = LiveTools::start(RigToolset::new(manager.clone()), tools.clone(), changes)
        .await
        .unwrap();
    assert_eq!(
        names(&tools),
        BTreeSet::from([
            "add_task".into(),
            "complete_task".into(),
            "list_tasks".into()
        ])
    );

    let model = replay([
        call("call-0", "read_note", json!({})),
        MockTurn::text("It says notes: read_note."),
    ]);
    let fleet_agent = agent(&model, tools.clone());
    manager
        .add("notes", fixture(&["named", "notes", "read_note"]))
        .unwrap();
    manager.start("notes").await.unwrap();
    until_tools(
        &live,
        &tools,
        &["add_task", "complete_task", "list_tasks", "read_note"],
    )
    .await;

    // The agent, built before the server joined, calls its tool.
    fleet_agent
        .prompt("Read the note.")
        .max_turns(3)
        .run()
        .await
        .unwrap();
    let result = serde_json::to_string(&model.requests()[1].chat_history.last()).unwrap();
    assert!(result.contains("notes: read_note"), "{result}");

    manager.remove("tasks").await.unwrap();
    until_tools(&live, &tools, &["read_note"]).await;
    manager.shutdown().await;
}

#[tokio::test]
async fn a_transport_failure_stops_the_run_before_the_model_sees_it() {
    let (toolset, tools) = installed_tasks_tools().await;
    toolset.close().await;
    let model = replay([
        call("call-0", "list_tasks", json!({})),
        MockTurn::text("There are no tasks."),
    ]);

    let error = ask(&model, tools, "Which tasks are open?")
        .await
        .unwrap_err()
        .to_string();

    assert!(
        error.contains("the call of list_tasks failed below the tool"),
        "{error}"
    );
    assert_eq!(model.request_count(), 1, "the model never saw the failure");
}

/// Read-only tools for everyone, the others for admins only.
fn read_only_unless_admin(tool: &ToolDefinition, context: Option<&ReadonlyContext>) -> bool {
    let admin = context.and_then(|context| context.get("role")) == Some(&json!("admin"));
    let read_only = tool
        .annotations
        .as_ref()
        .and_then(|annotations| annotations.read_only_hint)
        == Some(true);
    admin || read_only
}

#[tokio::test]
async fn the_callers_context_chooses_the_tools_and_reaches_each_call() {
    let callers: Arc<Mutex<Vec<Option<Value>>>> = Arc::default();
    let seen = callers.clone();
    let toolset = Arc::new(
        McpToolset::builder(tasks_server())
            .filter(read_only_unless_admin)
            .layer(BeforeCallLayer::new(move |call: &ToolCall| {
                let user = call
                    .context
                    .as_ref()
                    .and_then(|context| context.get("user"))
                    .cloned();
                seen.lock().unwrap().push(user);
                std::future::ready(Decision::Approve)
            }))
            .build()
            .await
            .unwrap(),
    );
    let viewer = ReadonlyContext::from_json(json!({"user": "bob", "role": "viewer"}));
    let admin = ReadonlyContext::from_json(json!({"user": "ada", "role": "admin"}));

    let viewer_tools = RigToolset::new(toolset.clone()).for_caller(viewer.clone());
    let listed: Vec<String> = viewer_tools
        .tools()
        .await
        .unwrap()
        .iter()
        .map(|tool| tool.name().to_string())
        .collect();
    assert_eq!(listed, ["list_tasks"]);

    let tools = tool_server();
    RigToolset::new(toolset.clone())
        .for_caller(admin)
        .install(&tools)
        .await
        .unwrap();
    assert_eq!(names(&tools).len(), 3);
    let model = replay([
        call("call-0", "complete_task", json!({"task_id": "T-1"})),
        MockTurn::text("Done."),
    ]);
    // The run's own caller wins over the one the tools were listed for.
    let mut context = ToolContext::new();
    context
        .insert(CallerContext::from_json(
            json!({"user": "cy", "role": "admin"}),
        ))
        .unwrap();
    agent(&model, tools.clone())
        .prompt("Close T-1.")
        .tool_context(context)
        .max_turns(3)
        .run()
        .await
        .unwrap();
    // Without one, the tools run for the caller they were listed for.
    let model = replay([
        call("call-0", "list_tasks", json!({})),
        MockTurn::text("Listed."),
    ]);
    ask(&model, tools, "List the tasks.").await.unwrap();

    assert_eq!(
        *callers.lock().unwrap(),
        [Some(json!("cy")), Some(json!("ada"))]
    );
    toolset.close().await;
}
