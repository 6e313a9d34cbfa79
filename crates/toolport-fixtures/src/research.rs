//! [`ResearchDesk`]: a server that runs its long tool as a task (2026-07-28's tasks extension),
//! for tests of clients that follow tasks, answer their questions and cancel them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ContentBlock,
    CreateTaskResult, ElicitRequest, ElicitRequestParams, ElicitationSchema, ErrorData,
    GetTaskParams, GetTaskResult, Implementation, InputRequest, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use serde_json::{Value, json};

/// A server with one tool, `research(topic, ambiguous?)`, which it runs as a task for a client
/// that declares the tasks extension, and answers at once, in brief, for one that does not.
///
/// The task works through three stages ([`with_stage`](Self::with_stage) long each, 20 ms by
/// default), each with a status message, and suggests polling every
/// [`with_poll_interval`](Self::with_poll_interval) (10 ms by default). With `ambiguous: true`
/// it asks the client which reading of the topic it means (the key `interpretation`, a form
/// with one string), and asks again under a new key until the answer is not `"unclear"`. The
/// topic `closed archives` fails the task with the error `the archive is closed`.
///
/// Clones share the tasks and the counts: [`tasks_started`](Self::tasks_started) and
/// [`tasks_cancelled`](Self::tasks_cancelled) (by `tasks/cancel`, while the task was running).
///
/// # Examples
///
/// ```
/// use toolport_testkit::DuplexConnector;
/// use toolport_fixtures::ResearchDesk;
///
/// let desk = ResearchDesk::new();
/// let connector = DuplexConnector::new({
///     let desk = desk.clone();
///     move || desk.clone()
/// });
/// # drop(connector);
/// ```
#[derive(Clone)]
pub struct ResearchDesk {
    tasks: TaskManager,
    stage: Duration,
    poll_interval_ms: u64,
    started: Arc<AtomicUsize>,
    cancelled: Arc<AtomicUsize>,
}

impl std::fmt::Debug for ResearchDesk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResearchDesk")
            .field("stage", &self.stage)
            .field("poll_interval_ms", &self.poll_interval_ms)
            .field("started", &self.tasks_started())
            .field("cancelled", &self.tasks_cancelled())
            .finish_non_exhaustive()
    }
}

impl Default for ResearchDesk {
    fn default() -> Self {
        Self::new()
    }
}

impl ResearchDesk {
    /// The tool's name.
    pub const TOOL: &'static str = "research";
    /// The topic whose task fails.
    pub const FAILING_TOPIC: &'static str = "closed archives";

    /// A desk whose stages take 20 ms, polled every 10 ms.
    pub fn new() -> Self {
        Self {
            tasks: TaskManager::new(),
            stage: Duration::from_millis(20),
            poll_interval_ms: 10,
            started: Arc::default(),
            cancelled: Arc::default(),
        }
    }

    /// How long each of the three stages takes.
    pub fn with_stage(mut self, stage: Duration) -> Self {
        self.stage = stage;
        self
    }

    /// The poll interval the tasks suggest (`pollIntervalMs`).
    pub fn with_poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval_ms = u64::try_from(interval.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// How many calls ran as tasks.
    pub fn tasks_started(&self) -> usize {
        self.started.load(Ordering::SeqCst)
    }

    /// How many running tasks a `tasks/cancel` stopped.
    pub fn tasks_cancelled(&self) -> usize {
        self.cancelled.load(Ordering::SeqCst)
    }

    fn tool() -> Tool {
        let schema = json!({
            "type": "object",
            "properties": {
                "topic": {"type": "string"},
                "ambiguous": {"type": "boolean"},
            },
            "required": ["topic"],
        });
        let Value::Object(schema) = schema else {
            unreachable!("the schema is an object");
        };
        Tool::new(Self::TOOL, "Researches a topic; takes a while.", schema)
    }

    /// The task's work: three stages, a question when the topic is ambiguous, then the report.
    async fn work(
        self,
        context: TaskContext,
        topic: String,
        ambiguous: bool,
    ) -> Result<CallToolResult, TaskExit> {
        let mut reading = "the usual one".to_owned();
        for stage in ["gathering sources", "reading", "writing the report"] {
            context.set_status_message(stage);
            tokio::select! {
                () = context.cancelled() => {
                    self.cancelled.fetch_add(1, Ordering::SeqCst);
                    return Err(TaskExit::Cancelled);
                }
                () = tokio::time::sleep(self.stage) => {}
            }
            if ambiguous && stage == "reading" {
                reading = match ask_for_reading(&context, &topic).await {
                    Ok(reading) => reading,
                    Err(TaskExit::Cancelled) => {
                        self.cancelled.fetch_add(1, Ordering::SeqCst);
                        return Err(TaskExit::Cancelled);
                    }
                    Err(error) => return Err(error),
                };
            }
        }
        if topic == Self::FAILING_TOPIC {
            return Err(TaskExit::Error(ErrorData::internal_error(
                "the archive is closed",
                None,
            )));
        }
        let report = format!("A report on {topic}, in {reading}");
        Ok(CallToolResult::success(vec![ContentBlock::text(report)]))
    }
}

/// Asks which reading of `topic` the user means, under a new key each time, until the answer
/// is not `"unclear"`.
async fn ask_for_reading(context: &TaskContext, topic: &str) -> Result<String, TaskExit> {
    for round in 1.. {
        let schema = ElicitationSchema::builder()
            .required_string("interpretation")
            .build_unchecked();
        let request = ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: format!("Which reading of {topic} do you mean?"),
            requested_schema: schema,
        });
        let key = format!("interpretation-{round}");
        let answer = context
            .request_input(key, InputRequest::Elicitation(request))
            .await?;
        let reading = answer["content"]["interpretation"]
            .as_str()
            .unwrap_or("unclear");
        if reading != "unclear" {
            return Ok(reading.to_owned());
        }
    }
    unreachable!("the rounds never run out")
}

impl ServerHandler for ResearchDesk {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tasks()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("toolport-research-desk", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![Self::tool()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != Self::TOOL {
            return Err(ErrorData::invalid_params(
                format!("no tool named {}", request.name),
                None,
            ));
        }
        let arguments = request.arguments.unwrap_or_default();
        let Some(topic) = arguments.get("topic").and_then(Value::as_str) else {
            return Err(ErrorData::invalid_params("topic is required", None));
        };
        let topic = topic.to_owned();
        let ambiguous = arguments
            .get("ambiguous")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let offers_tasks = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
        if !offers_tasks {
            let brief = format!("A brief note on {topic}");
            return Ok(CallToolResult::success(vec![ContentBlock::text(brief)]).into());
        }
        self.started.fetch_add(1, Ordering::SeqCst);
        let options = TaskOptions::new()
            .with_poll_interval_ms(self.poll_interval_ms)
            .with_status_message("queued");
        let desk = self.clone();
        let task = self.tasks.spawn(options, move |context| {
            Box::pin(desk.work(context, topic, ambiguous))
        });
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.tasks.get_task(&request.task_id)?))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.cancel_task(&request.task_id)
    }
}
