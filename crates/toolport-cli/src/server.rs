//! Turns the SERVER part of the command line into a toolset, or, for `--config` without
//! `--server`, into a fleet of servers whose tools are listed and called together.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use tokio::sync::broadcast::{self, error::TryRecvError};
use toolport::http::HttpServer;
use toolport::manager::{
    ManagerEvent, ManagerEventKind, McpConfig, McpServerManager, ServerConfig, ServerStatus,
};
use toolport::model::ServerCapabilities;
use toolport::schema::Provider;
use toolport::sse::SseServer;
use toolport::stdio::StdioServer;
use toolport::{
    HttpOptions, Mapping, McpSession, McpTool, McpToolset, McpToolsetBuilder, Secret, ServerEvent,
    Timeouts, Tool, Toolset, ToolsetError, WithHttpOptions,
};

use crate::args::{ServerArgs, Transport};
use crate::fleet_start::{start_fleet, wait_for_server};
use crate::interrupt::close_on_signal;
use crate::terminal::errln;

/// A toolset builder for the one server the command line names: a stdio child, a URL, a
/// server of `--config`, or the built-in demo task tracker when none is named.
pub(crate) fn toolset_builder(
    server: &ServerArgs,
    timeouts: Timeouts,
) -> anyhow::Result<McpToolsetBuilder> {
    let builder = if let Some(path) = &server.config {
        let (id, config) = configured_server(path, server.server_id.as_deref())?;
        // Not through the common tail below: the entry's own `timeout` must stay.
        return Ok(config
            .toolset_builder(&id, timeouts)?
            .session(|session| session.protocol(server.protocol.choice())));
    } else if let Some(url) = &server.url {
        let mut options = http_options(server)?;
        if let Some(authorizer) = crate::auth::authorizer(server, url, &options.network)? {
            options = options.authorizer(authorizer);
        }
        match server.transport {
            Transport::StreamableHttp => McpToolset::builder(HttpServer::new(url).options(options)),
            Transport::Sse => McpToolset::builder(SseServer::new(url).options(options)),
        }
    } else if let Some((program, args)) = server.command.split_first() {
        McpToolset::builder(stdio_server(server, program, args)?)
    } else {
        McpToolset::builder(toolport_demo::DemoConnector)
    };
    Ok(builder.session(|session| {
        session
            .timeouts(timeouts)
            .protocol(server.protocol.choice())
    }))
}

/// Builds the toolset, its session kept to close if the command is interrupted. The first
/// retry of its start-up is said on stderr, once, so that a stdio server started again is no
/// surprise; why it failed is the last attempt's error, or `--verbose`'s.
pub(crate) async fn build(builder: McpToolsetBuilder) -> Result<McpToolset, ToolsetError> {
    let toolset = builder.build().await?;
    close_on_signal(toolset.session());
    let mut events = toolset.session().events();
    tokio::spawn(async move {
        while let Some(event) = events.next().await {
            if let ServerEvent::Retrying { attempts, .. } = event {
                errln!(
                    "toolport: the session did not start; trying again on a fresh connection, {attempts} attempts in all (a stdio server is started anew for each)"
                );
                return;
            }
        }
    });
    Ok(toolset)
}

/// Says on stderr that the server does not offer `what` (resources, prompts, completions), when
/// the capabilities it declared leave it out: an empty answer is then not the server's content.
pub(crate) fn note_not_offered(
    session: &McpSession,
    what: &str,
    offered: fn(&ServerCapabilities) -> bool,
) {
    if session
        .server_capabilities()
        .is_some_and(|capabilities| !offered(&capabilities))
    {
        errln!(
            "toolport: {} does not offer {what} (it declares no `{what}` capability)",
            session.target()
        );
    }
}

/// The stdio server `program args`, with the variables of `-e` and `--env-pass`.
fn stdio_server(
    server: &ServerArgs,
    program: &str,
    args: &[String],
) -> anyhow::Result<StdioServer> {
    let mut stdio = StdioServer::new(program).args(args);
    for (name, value) in &server.env {
        stdio = stdio.env(name, value);
    }
    for name in &server.env_pass {
        let value = std::env::var_os(name).with_context(|| {
            format!("--env-pass {name}: `{name}` is not set in this environment")
        })?;
        stdio = stdio.env(name, value);
    }
    Ok(stdio)
}

/// The server of the file at `path` named `id`, or, with no id, its only enabled server.
fn configured_server(path: &Path, id: Option<&str>) -> anyhow::Result<(String, ServerConfig)> {
    let config = McpConfig::load(path)?;
    if let Some(id) = id {
        if let Some(error) = config.errors().find(|error| error.server() == Some(id)) {
            return Err(error.clone().into());
        }
        let server = config.server(id).with_context(|| {
            let ids: Vec<&str> = config.servers().map(|(id, _)| id).collect();
            format!(
                "{}: no server `{id}`; it has {}",
                path.display(),
                ids.join(", ")
            )
        })?;
        return Ok((id.to_owned(), server.clone()));
    }
    let enabled: Vec<(&str, &ServerConfig)> = config
        .servers()
        .filter(|(_, server)| !server.disabled)
        .collect();
    match enabled.as_slice() {
        [(id, server)] => Ok(((*id).to_owned(), (*server).clone())),
        servers => {
            let ids: Vec<&str> = servers.iter().map(|(id, _)| *id).collect();
            anyhow::bail!(
                "{} has {} enabled servers ({}); this command needs one: pick it with --server ID",
                path.display(),
                ids.len(),
                ids.join(", ")
            )
        }
    }
}

/// The servers a command lists and calls tools of.
pub(crate) enum Servers {
    /// One server's toolset (shared with the tool search that ranks its tools).
    One(Arc<McpToolset>),
    /// Every enabled server of `--config` (shared with the task that says which join late).
    Fleet(Arc<McpServerManager>),
}

/// One tool as the command shows and calls it.
pub(crate) struct ListedTool {
    /// The name the command shows and `call` takes.
    pub(crate) name: String,
    /// The tool, called under the server's own name.
    pub(crate) tool: Arc<McpTool>,
    /// The provider's declaration under `name`, with `--provider`.
    pub(crate) function: Option<serde_json::Value>,
    /// The server's id, for a fleet.
    pub(crate) server: Option<String>,
}

impl Servers {
    /// Opens what the command line names, each toolset built as `provider` and `mapping` say.
    ///
    /// For a fleet, every enabled server starts at once, as [`start_fleet`] says: each that
    /// fails is named on stderr, one line each, and the command goes on with the others,
    /// without those still starting after the start-up grace. It fails when a `required`
    /// server failed, or when no server started.
    pub(crate) async fn open(
        server: &ServerArgs,
        timeouts: Timeouts,
        provider: Option<Provider>,
        mapping: Mapping,
    ) -> anyhow::Result<Self> {
        let (Some(path), None) = (&server.config, &server.server_id) else {
            let mut builder = toolset_builder(server, timeouts)?.mapping(mapping);
            if let Some(provider) = provider {
                builder = builder.fit_to(provider);
            }
            return Ok(Self::One(Arc::new(build(builder).await?)));
        };
        let mut builder = McpServerManager::builder()
            .load(path)?
            .timeouts(timeouts)
            .protocol(server.protocol.choice())
            .configure_toolsets(move |_, toolset| toolset.mapping(mapping));
        if let Some(provider) = provider {
            builder = builder.provider(provider);
        }
        let manager = Arc::new(builder.build());
        if let Err(error) = start_fleet(&manager, path).await {
            manager.shutdown().await;
            return Err(error);
        }
        for id in manager.ids() {
            if let Some(toolset) = manager.toolset(&id) {
                close_on_signal(toolset.session());
            }
        }
        Ok(Self::Fleet(manager))
    }

    /// Every tool offered, in the order the server (or the fleet) lists them. For a fleet, each
    /// tool renamed because its name claims another server, and each left out, is named on
    /// stderr.
    pub(crate) async fn tools(&self) -> anyhow::Result<Vec<ListedTool>> {
        Ok(match self {
            Self::One(toolset) => toolset
                .mcp_tools(None)
                .await?
                .into_iter()
                .map(|tool| ListedTool {
                    name: tool.name().to_owned(),
                    function: tool.function_declaration().cloned(),
                    tool,
                    server: None,
                })
                .collect(),
            Self::Fleet(manager) => {
                let mut events = manager.subscribe();
                let tools = manager.managed_tools(None).await?;
                report_names(&mut events);
                tools
                    .into_iter()
                    .map(|tool| ListedTool {
                        name: tool.name().to_owned(),
                        function: tool.function_declaration(),
                        tool: Arc::clone(tool.mcp_tool()),
                        server: Some(tool.server_id().to_owned()),
                    })
                    .collect()
            }
        })
    }

    /// The server's toolset, or the fleet's aggregate, for a layer over it such as tool
    /// search.
    pub(crate) fn toolset(&self) -> Arc<dyn Toolset> {
        match self {
            Self::One(toolset) => Arc::clone(toolset) as Arc<dyn Toolset>,
            Self::Fleet(manager) => Arc::clone(manager) as Arc<dyn Toolset>,
        }
    }

    /// The server, or the fleet, for messages.
    pub(crate) fn target(&self) -> String {
        match self {
            Self::One(toolset) => toolset.session().target().to_owned(),
            Self::Fleet(_) => "the configuration".to_owned(),
        }
    }

    /// The tool offered as `name`, or an error naming those offered; in a fleet, a name that
    /// servers share is offered only under their prefixes, and the error names them.
    ///
    /// A name prefixed with the id of a fleet's server that is still starting, `{id}__…`, can
    /// only be that server's: the command waits for its start.
    pub(crate) async fn tool(&self, name: &str) -> anyhow::Result<ListedTool> {
        let mut tools = self.tools().await?;
        if let Self::Fleet(manager) = self
            && !tools.iter().any(|tool| tool.name == name)
            && let Some(id) = starting_server_of(manager, name)
        {
            errln!(
                "toolport: `{name}` can only be on `{id}`, which is still starting: waiting for it"
            );
            wait_for_server(manager, &id).await?;
            tools = self.tools().await?;
        }
        let available: Vec<String> = tools.iter().map(|tool| tool.name.clone()).collect();
        let target = self.target();
        let (mut found, others): (Vec<ListedTool>, Vec<ListedTool>) =
            tools.into_iter().partition(|tool| tool.name == name);
        if let Some(tool) = found.pop() {
            return Ok(tool);
        }
        let sharing: Vec<&ListedTool> = others
            .iter()
            .filter(|tool| tool.server.is_some() && tool.tool.name() == name)
            .collect();
        if !sharing.is_empty() {
            let servers: Vec<&str> = sharing
                .iter()
                .filter_map(|tool| tool.server.as_deref())
                .collect();
            let names: Vec<String> = sharing
                .iter()
                .map(|tool| format!("`{}`", tool.name))
                .collect();
            anyhow::bail!(
                "tool `{name}` is on more than one server ({}): call it as {}",
                servers.join(", "),
                names.join(" or ")
            );
        }
        Err(ToolsetError::UnknownTool {
            target,
            name: name.to_owned(),
            available,
        }
        .into())
    }

    /// The session `tool` belongs to.
    pub(crate) fn session_of(&self, tool: &ListedTool) -> Option<McpSession> {
        match (self, &tool.server) {
            (Self::One(toolset), _) => Some(toolset.session().clone()),
            (Self::Fleet(manager), Some(id)) => Some(manager.toolset(id)?.session().clone()),
            (Self::Fleet(_), None) => None,
        }
    }

    /// Ends every session, and the processes behind them.
    pub(crate) async fn close(&self) {
        match self {
            Self::One(toolset) => {
                toolset.close().await;
            }
            Self::Fleet(manager) => manager.shutdown().await,
        }
    }
}

/// The server of the fleet whose id prefixes `name` (`{id}__…`), if it is still starting.
fn starting_server_of(manager: &McpServerManager, name: &str) -> Option<String> {
    manager.statuses().into_iter().find_map(|(id, status)| {
        let starting = matches!(
            status,
            ServerStatus::Starting | ServerStatus::Restarting { .. }
        );
        (starting && name.strip_prefix(id.as_str())?.starts_with("__")).then_some(id)
    })
}

/// Names on stderr, one line each, the fleet's tools that the aggregate just renamed (for
/// claiming another server) or left out, as `events` saw them.
fn report_names(events: &mut broadcast::Receiver<ManagerEvent>) {
    loop {
        let event = match events.try_recv() {
            Ok(event) => event,
            Err(TryRecvError::Lagged(missed)) => {
                errln!("toolport: {missed} events missed; --verbose logs every renamed tool");
                continue;
            }
            Err(_) => return,
        };
        let server = &event.server;
        match &event.kind {
            ManagerEventKind::ToolRenamed {
                tool,
                name,
                claimed,
            } => errln!(
                "toolport: server `{server}`: tool `{tool}` is listed as `{name}`: its name claims server `{claimed}`"
            ),
            ManagerEventKind::ToolLeftOut { tool, name, holder } => errln!(
                "toolport: server `{server}`: tool `{tool}` is left out: its name, `{name}`, is server `{holder}`'s"
            ),
            _ => {}
        }
    }
}

/// Headers and the bearer token for a remote server.
fn http_options(server: &ServerArgs) -> anyhow::Result<HttpOptions> {
    let mut options = HttpOptions::new();
    for header in &server.headers {
        let (name, value) = header
            .split_once(':')
            .with_context(|| format!("-H `{header}`: expected 'Name: value'"))?;
        let name = name.trim();
        if name.is_empty() {
            anyhow::bail!("-H `{header}`: the header name is empty");
        }
        options = options.header(name, value.trim());
    }
    if let Some(variable) = &server.bearer_env {
        let token = std::env::var(variable)
            .ok()
            .filter(|token| !token.is_empty())
            .with_context(|| format!("--bearer-env {variable}: the variable is not set"))?;
        options = options.bearer_token(Secret::new(token));
    }
    network_options(server, options)
}

/// `--proxy`, `--no-proxy`, `--ca-file`, `--client-cert` and `--client-key`.
fn network_options(server: &ServerArgs, mut options: HttpOptions) -> anyhow::Result<HttpOptions> {
    let read = |flag: &str, path: &Path| {
        std::fs::read(path).with_context(|| format!("{flag} {}: cannot read it", path.display()))
    };
    if let Some(proxy) = &server.proxy {
        options = options.proxy(Secret::new(proxy.as_str()));
    }
    if server.no_proxy {
        options = options.no_proxy();
    }
    for path in &server.ca_files {
        options = options.add_root_certificate(read("--ca-file", path)?);
    }
    if let (Some(cert), Some(key)) = (&server.client_cert, &server.client_key) {
        let key = String::from_utf8(read("--client-key", key)?)
            .ok()
            .with_context(|| format!("--client-key {}: not a PEM text", key.display()))?;
        options = options.client_identity(read("--client-cert", cert)?, Secret::new(key));
    }
    Ok(options)
}
