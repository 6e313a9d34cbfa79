//! `mcp_manager`: the server manager at run time, offline, over the example's own child
//! servers (`mcp-manager-tasks-server` and `mcp-manager-lab-server`, built beside it).
//!
//! It writes an `mcp.json`, starts the fleet, discovers and calls tools, then adds, enables,
//! disables, updates (once rolled back), removes and reloads servers at run time, saves the
//! file and shuts down, printing each step and the lifecycle events it caused. It checks what
//! it shows, and exits 1 with the reason when something is not as it should be.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, ensure};
use serde_json::{Value, json};
use tokio::sync::broadcast;
use toolport::Tool as _;
use toolport::manager::{
    ManagerError, ManagerEvent, ManagerEventKind, McpServerManager, ServerConfig, ServerStatus,
};

/// Runs the tour; on failure, prints `mcp_manager: ` and the reason to stderr and exits 1.
#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp_manager: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The tour in a directory of its own under the system's temporary one, removed afterwards.
async fn run() -> anyhow::Result<()> {
    let servers = ChildServers::beside_this_program()?;
    let dir = std::env::temp_dir().join(format!("mcp-manager-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).context("creating the example's directory")?;
    let path = dir.join("mcp.json");
    let walked = walk_through(&servers, &path).await;
    let removed = std::fs::remove_dir_all(&dir);
    // A failed step is the news; a directory left behind only after it.
    walked?;
    removed.with_context(|| format!("removing {}", dir.display()))
}

/// The example's own server programs.
struct ChildServers {
    tasks: String,
    lab: String,
}

impl ChildServers {
    /// The server binaries cargo built next to this one.
    fn beside_this_program() -> anyhow::Result<Self> {
        let program = std::env::current_exe().context("finding this program")?;
        let dir = program.parent().context("this program has a directory")?;
        let find = |name: &str| -> anyhow::Result<String> {
            let path = dir.join(name);
            ensure!(
                path.is_file(),
                "{} is missing: build the example with `cargo build -p mcp-manager`",
                path.display()
            );
            Ok(path.display().to_string())
        };
        Ok(Self {
            tasks: find("mcp-manager-tasks-server")?,
            lab: find("mcp-manager-lab-server")?,
        })
    }
}

/// Every step of the tour over `servers`, with its `mcp.json` at `path`.
async fn walk_through(servers: &ChildServers, path: &Path) -> anyhow::Result<()> {
    let file = json!({"mcpServers": {
        "work": {"command": servers.tasks, "note": "a field the manager keeps on save"},
        "home": {"command": servers.tasks},
        "lab": {"command": servers.lab, "disabled": true}
    }});
    std::fs::write(path, serde_json::to_string_pretty(&file)?)?;
    // The tour waits for every server; by default, start_all waits 2 s for those not marked
    // `required` and lets them join later.
    let manager = McpServerManager::builder()
        .load(path)?
        .startup_grace(Duration::MAX)
        .grace(Duration::from_secs(2))
        .build();
    let mut events = manager.subscribe();

    step("start every enabled server at once");
    let report = manager.start_all().await;
    ensure!(
        report.all_started(),
        "a server did not start: {:?}",
        report
            .failures()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    );
    println!("  {} started; lab is disabled", report.started());
    print_events(&mut events);

    step("discover: both task servers publish the same tools, so each is prefixed");
    let names = tool_names(&manager).await?;
    println!("  {}", names.join(", "));
    ensure!(
        names.contains(&"work__add_task".to_owned()),
        "work's tools are prefixed"
    );

    step("call: work and home keep their own tasks");
    let added = call(
        &manager,
        "work__add_task",
        json!({"title": "Book the venue"}),
    )
    .await?;
    println!("  work__add_task -> {}", added["id"]);
    let home = call(&manager, "home__list_tasks", json!({})).await?;
    ensure!(home["count"] == 3, "home still has its 3 tasks: {home}");
    println!("  home__list_tasks -> {} tasks", home["count"]);

    step("add a server at run time, offering only the lab's `add`, and start it");
    manager.add(
        "calc",
        ServerConfig::stdio(&servers.lab).include_tools(["add"]),
    )?;
    manager.start("calc").await?;
    let sum = call(&manager, "add", json!({"a": 2, "b": 3})).await?;
    ensure!(sum["sum"] == 5, "2 + 3: {sum}");
    println!("  add(2, 3) -> {}", sum["sum"]);
    print_events(&mut events);

    step("enable lab: it publishes `add` too, so only that name is prefixed");
    manager.enable("lab").await?;
    let names = tool_names(&manager).await?;
    let lab_and_calc: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|name| !name.contains("_task"))
        .collect();
    println!("  {}", lab_and_calc.join(", "));
    ensure!(
        lab_and_calc.contains(&"calc__add")
            && lab_and_calc.contains(&"lab__add")
            && lab_and_calc.contains(&"echo")
            && !lab_and_calc.contains(&"add"),
        "only `add` is prefixed: {lab_and_calc:?}"
    );
    let echoed = call(&manager, "echo", json!({"text": "hello"})).await?;
    println!("  echo -> {echoed}");
    print_events(&mut events);

    step("disable calc: lab's `add` gets its own name back");
    manager.disable("calc").await?;
    let sum = call(&manager, "add", json!({"a": 20, "b": 22})).await?;
    ensure!(sum["sum"] == 42, "20 + 22: {sum}");
    println!(
        "  add(20, 22) -> {}  (calc: {})",
        sum["sum"],
        status(&manager, "calc")
    );
    print_events(&mut events);

    step("update home: restarted with the new configuration");
    let faster = ServerConfig::stdio(&servers.tasks).timeout(Duration::from_secs(5));
    manager.update("home", faster.clone()).await?;
    println!("  home: {}", status(&manager, "home"));

    step("update home to a command that does not exist: rolled back");
    let missing = ServerConfig::stdio(format!("{}-not-built", servers.tasks));
    let error = manager.update("home", missing).await.unwrap_err();
    ensure!(matches!(error, ManagerError::RolledBack { .. }), "{error}");
    ensure!(
        manager.config("home") == Some(faster),
        "the old configuration is back"
    );
    println!("  {error}");
    ensure!(
        manager
            .status("home")
            .is_some_and(|status| status.is_running()),
        "home runs its old configuration again: {}",
        status(&manager, "home")
    );
    println!("  home: {}", status(&manager, "home"));
    print_events(&mut events);

    step("remove calc");
    manager.remove("calc").await?;
    ensure!(manager.status("calc").is_none(), "calc is gone");
    println!("  servers: {}", manager.ids().join(", "));
    print_events(&mut events);

    step("save: the file as the manager runs it, its unknown fields kept");
    manager.save()?;
    let saved = std::fs::read_to_string(path)?;
    println!("{}", indent(&saved));
    let mut saved: Value = serde_json::from_str(&saved)?;
    ensure!(
        saved["mcpServers"]["work"]["note"].is_string(),
        "the note is kept"
    );
    ensure!(
        saved["mcpServers"]["home"]["timeout"] == 5,
        "the update is saved"
    );
    ensure!(
        saved["mcpServers"]["calc"].is_null(),
        "the removal is saved"
    );

    step("reload the saved file, edited on disk: lab removed, notes added");
    let entries = saved["mcpServers"]
        .as_object_mut()
        .context("the servers object")?;
    entries.remove("lab");
    entries.insert("notes".to_owned(), json!({"command": servers.tasks}));
    std::fs::write(path, serde_json::to_string_pretty(&saved)?)?;
    let work_before = manager.toolset("work").context("work runs")?;
    let reloaded = manager.reload(path).await?;
    println!(
        "  added {:?}, removed {:?}, changed {:?}, unchanged {:?}, errors {:?}",
        reloaded.added, reloaded.removed, reloaded.changed, reloaded.unchanged, reloaded.errors
    );
    ensure!(
        reloaded.added == ["notes"]
            && reloaded.removed == ["lab"]
            && reloaded.changed.is_empty()
            && reloaded.unchanged == ["work", "home"]
            && reloaded.errors.is_empty(),
        "only lab and notes moved: {reloaded:?}"
    );
    let work_after = manager.toolset("work").context("work runs")?;
    ensure!(
        std::sync::Arc::ptr_eq(&work_before, &work_after),
        "work kept its session"
    );
    let kept = call(&manager, "work__list_tasks", json!({})).await?;
    ensure!(
        kept["count"] == 4,
        "work kept its state, the added task too: {kept}"
    );
    print_events(&mut events);

    step("shut down: every child closes within the grace period");
    manager.shutdown().await;
    for (id, status) in manager.statuses() {
        println!("  {id}: {status}");
        ensure!(status == ServerStatus::Stopped, "{id} is stopped");
    }
    print_events(&mut events);
    Ok(())
}

/// Prints the name of a step.
fn step(name: &str) {
    println!("\n== {name}");
}

/// The aggregate's tool names, sorted.
async fn tool_names(manager: &McpServerManager) -> anyhow::Result<Vec<String>> {
    let mut names: Vec<String> = manager
        .managed_tools(None)
        .await?
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect();
    names.sort();
    Ok(names)
}

/// Calls the aggregate's tool `name` as a model would, and returns what the model reads.
async fn call(manager: &McpServerManager, name: &str, arguments: Value) -> anyhow::Result<Value> {
    let tool = manager.tool(name, None).await?;
    let output = tool.call(arguments, None).await?;
    ensure!(!output.is_error, "{name} failed: {}", output.value);
    Ok(output.value)
}

/// Server `id`'s status, as text.
fn status(manager: &McpServerManager, id: &str) -> String {
    manager
        .status(id)
        .map_or_else(|| "unknown".to_owned(), |status| status.to_string())
}

/// Prints the lifecycle events that arrived since the last call, on one line.
fn print_events(events: &mut broadcast::Receiver<ManagerEvent>) {
    let mut seen = Vec::new();
    while let Ok(event) = events.try_recv() {
        seen.push(format!("{} {}", event.server, event_name(&event.kind)));
    }
    if !seen.is_empty() {
        println!("  events: {}", seen.join("; "));
    }
}

/// The name of an event's kind alone: a failure's whole error is printed by its step.
fn event_name(kind: &ManagerEventKind) -> &'static str {
    match kind {
        ManagerEventKind::Added => "added",
        ManagerEventKind::Updated => "updated",
        ManagerEventKind::RolledBack { .. } => "rolled back",
        ManagerEventKind::Removed => "removed",
        ManagerEventKind::Starting => "starting",
        ManagerEventKind::Running => "running",
        ManagerEventKind::StartFailed { .. } => "start failed",
        ManagerEventKind::Crashed { .. } => "crashed",
        ManagerEventKind::Restarting { .. } => "restarting",
        ManagerEventKind::Failed { .. } => "failed",
        ManagerEventKind::Stopped => "stopped",
        ManagerEventKind::ToolsChanged => "tools changed",
        _ => "other",
    }
}

/// `text` indented by two spaces.
fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("  {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}
