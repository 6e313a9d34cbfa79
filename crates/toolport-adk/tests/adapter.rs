//! What the adapter adds to ADK's loop: the caller's context choosing the tools, the
//! read-only flag, a transport failure ending the run, and the result shapes.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use adk_core::{Content, Toolset as _};
use common::{ask, ask_agent, tasks_agent, tasks_server, tasks_toolset};
use serde_json::{Value, json};
use toolport::manager::{McpServerManager, ServerConfig};
use toolport::{McpToolset, ReadonlyContext, Tool, ToolDefinition, Toolset, ToolsetError};
use toolport_adk::{AdkToolset, ReplayLlm, ResultShape, transcript};

/// Read-only tools for everyone, the others for admins only: a Toolport predicate, unchanged.
fn read_only_unless_admin(tool: &ToolDefinition, context: Option<&ReadonlyContext>) -> bool {
    let admin = context.and_then(|context| context.get("role")) == Some(&json!("admin"));
    let read_only = tool
        .annotations
        .as_ref()
        .and_then(|annotations| annotations.read_only_hint)
        == Some(true);
    admin || read_only
}

fn offered(model: &ReplayLlm) -> BTreeSet<String> {
    model.transcript()[0]["tools"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

#[tokio::test]
async fn the_session_state_reaches_a_toolport_predicate_through_adks_context() {
    let toolset: Arc<McpToolset> = Arc::new(
        McpToolset::builder(tasks_server())
            .filter(read_only_unless_admin)
            .build()
            .await
            .unwrap(),
    );
    let tools = Arc::new(AdkToolset::new(toolset.clone()));

    let viewer = Arc::new(ReplayLlm::new([ReplayLlm::answer("I can only read.")]));
    let state = HashMap::from([("role".to_owned(), json!("viewer"))]);
    ask(viewer.clone(), tools.clone(), state, "Close T-1.").await;
    assert_eq!(offered(&viewer), BTreeSet::from(["list_tasks".to_owned()]));

    let admin = Arc::new(ReplayLlm::new([ReplayLlm::answer("Which one?")]));
    let state = HashMap::from([("role".to_owned(), json!("admin"))]);
    ask(admin.clone(), tools, state, "Close T-1.").await;
    assert_eq!(
        offered(&admin),
        BTreeSet::from([
            "add_task".into(),
            "complete_task".into(),
            "list_tasks".into()
        ])
    );
    toolset.close().await;
}

/// A context with nothing in it but a user, for asking a toolset directly.
struct Caller(Content);

impl adk_core::ReadonlyContext for Caller {
    fn invocation_id(&self) -> &str {
        "invocation"
    }
    fn agent_name(&self) -> &str {
        "tasks_agent"
    }
    fn user_id(&self) -> &str {
        "dev"
    }
    fn app_name(&self) -> &str {
        "tasks"
    }
    fn session_id(&self) -> &str {
        "session"
    }
    fn branch(&self) -> &str {
        ""
    }
    fn user_content(&self) -> &Content {
        &self.0
    }
}

#[tokio::test]
async fn is_read_only_follows_the_servers_read_only_hint() {
    let toolset = tasks_toolset().await;
    let tools = AdkToolset::new(toolset.clone())
        .tools(Arc::new(Caller(Content::new("user"))))
        .await
        .unwrap();
    let read_only: Vec<(&str, bool)> = tools
        .iter()
        .map(|tool| (tool.name(), tool.is_read_only()))
        .collect();
    assert_eq!(
        read_only,
        [
            ("add_task", false),
            ("complete_task", false),
            ("list_tasks", true)
        ]
    );
    toolset.close().await;
}

/// Tools listed once, offered as they are.
#[derive(Debug)]
struct Listed(Vec<Arc<dyn Tool>>);

#[async_trait::async_trait]
impl Toolset for Listed {
    async fn tools(
        &self,
        _context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        Ok(self.0.clone())
    }

    async fn close(&self) {}
}

#[tokio::test]
async fn a_transport_failure_ends_the_run_before_the_model_is_asked_again() {
    // The tools as they were listed; then the server goes away.
    let toolset = tasks_toolset().await;
    let listed = Arc::new(Listed(toolset.tools(None).await.unwrap()));
    toolset.close().await;
    let tools = Arc::new(AdkToolset::new(listed));
    let model = Arc::new(ReplayLlm::new([
        ReplayLlm::call("call-0", "list_tasks", json!({})),
        ReplayLlm::answer("There are no tasks."),
    ]));

    let events = ask(
        model.clone(),
        tools,
        HashMap::new(),
        "Which tasks are open?",
    )
    .await;

    let lines = transcript(&events);
    assert_eq!(lines[0], "call   list_tasks {}");
    assert!(lines[1].starts_with("result ok {\"error\":"), "{lines:?}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(model.request_count(), 1, "the model was not asked again");
}

#[tokio::test]
async fn the_adk_java_shape_is_a_preset() {
    let toolset = tasks_toolset().await;
    let model = Arc::new(ReplayLlm::new([
        ReplayLlm::call("call-0", "complete_task", json!({"task_id": "T-9"})),
        ReplayLlm::answer("No such task."),
    ]));
    let tools = AdkToolset::new(toolset.clone()).result_shape(ResultShape::AdkJava);

    ask(
        model.clone(),
        Arc::new(tools),
        HashMap::new(),
        "Mark task T-9 as done.",
    )
    .await;

    let response: &Value =
        &model.transcript()[1]["contents"][3]["parts"][0]["functionResponse"]["response"];
    assert_eq!(
        *response,
        json!({"error": "Tool execution failed. Details: No task with ID T-9. Call list_tasks to see the valid IDs."})
    );
    toolset.close().await;
}

#[tokio::test]
async fn a_server_that_joins_the_fleet_is_offered_on_the_agents_next_turn() {
    let fixture = |args: &[&str]| {
        ServerConfig::stdio(toolport_fixtures::fixture_binary().display().to_string())
            .args(args.iter().copied())
    };
    let manager = Arc::new(McpServerManager::builder().build());
    manager.add("tasks", fixture(&["tasks"])).unwrap();
    manager.start("tasks").await.unwrap();
    let model = Arc::new(ReplayLlm::new([
        ReplayLlm::answer("Three tools."),
        ReplayLlm::answer("Four tools."),
    ]));
    // One agent, built once, over the fleet.
    let agent = tasks_agent(model.clone(), Arc::new(AdkToolset::new(manager.clone())));

    ask_agent(agent.clone(), HashMap::new(), "What can you do?").await;
    manager
        .add("notes", fixture(&["named", "notes", "read_note"]))
        .unwrap();
    manager.start("notes").await.unwrap();
    ask_agent(agent, HashMap::new(), "And now?").await;

    let offered: Vec<Vec<String>> = model
        .transcript()
        .as_array()
        .unwrap()
        .iter()
        .map(|request| {
            request["tools"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        })
        .collect();
    assert_eq!(
        offered,
        [
            vec!["add_task", "complete_task", "list_tasks"],
            vec!["add_task", "complete_task", "list_tasks", "read_note"],
        ]
    );
    // A fleet's tools carry their server's read-only hint as one server's do.
    let tools = AdkToolset::new(manager.clone())
        .tools(Arc::new(Caller(Content::new("user"))))
        .await
        .unwrap();
    let list_tasks = tools
        .iter()
        .find(|tool| tool.name() == "list_tasks")
        .unwrap();
    assert!(list_tasks.is_read_only());
    manager.shutdown().await;
}

/// A tool that answers nothing, for a toolset whose list the test controls; it runs as a task
/// when its flag says so.
#[derive(Debug)]
struct Quiet(toolport::ToolDeclaration, bool);

#[async_trait::async_trait]
impl Tool for Quiet {
    fn declaration(&self) -> &toolport::ToolDeclaration {
        &self.0
    }

    fn runs_as_task(&self) -> bool {
        self.1
    }

    async fn call(
        &self,
        _arguments: Value,
        _context: Option<&ReadonlyContext>,
    ) -> Result<toolport::ToolOutput, toolport::ToolError> {
        Ok(toolport::ToolOutput::value(json!("quiet")))
    }
}

fn quiet(name: &str) -> Arc<dyn Tool> {
    quiet_task(name, false)
}

fn quiet_task(name: &str, runs_as_task: bool) -> Arc<dyn Tool> {
    let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}});
    let declaration = toolport::ToolDeclaration::new(name, "Says nothing.", schema);
    Arc::new(Quiet(declaration, runs_as_task))
}

/// Tools listed as the test last set them.
#[derive(Debug, Default)]
struct Settable(std::sync::Mutex<Vec<Arc<dyn Tool>>>);

#[async_trait::async_trait]
impl Toolset for Settable {
    async fn tools(
        &self,
        _context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        Ok(self.0.lock().unwrap().clone())
    }

    async fn close(&self) {}
}

#[tokio::test]
async fn a_turn_whose_tools_have_not_changed_declares_none_again() {
    let listed = Arc::new(Settable::default());
    *listed.0.lock().unwrap() = vec![quiet("a"), quiet("b")];
    let tools = AdkToolset::new(listed.clone());
    let caller = || Arc::new(Caller(Content::new("user"))) as Arc<dyn adk_core::ReadonlyContext>;

    let first = tools.tools(caller()).await.unwrap();
    let second = tools.tools(caller()).await.unwrap();
    assert_eq!(first.len(), 2);
    for (before, after) in first.iter().zip(&second) {
        assert!(
            Arc::ptr_eq(before, after),
            "{} was made again",
            before.name()
        );
    }

    // `b` listed anew (its server's list changed) is made anew; `a` is kept.
    let a = listed.0.lock().unwrap()[0].clone();
    *listed.0.lock().unwrap() = vec![a, quiet("b")];
    let third = tools.tools(caller()).await.unwrap();
    assert!(Arc::ptr_eq(&first[0], &third[0]));
    assert!(!Arc::ptr_eq(&first[1], &third[1]));
    assert_eq!(third[1].name(), "b");
}

#[tokio::test]
async fn is_long_running_follows_whether_the_call_runs_as_a_task() {
    let listed = Arc::new(Settable::default());
    *listed.0.lock().unwrap() = vec![quiet_task("research", true), quiet("echo")];
    let tools = AdkToolset::new(listed)
        .tools(Arc::new(Caller(Content::new("user"))))
        .await
        .unwrap();
    let long_running: Vec<(&str, bool)> = tools
        .iter()
        .map(|tool| (tool.name(), tool.is_long_running()))
        .collect();
    assert_eq!(long_running, [("research", true), ("echo", false)]);
}
