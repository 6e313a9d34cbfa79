//! Turns the SERVER part of the command line into a toolset.

use anyhow::Context as _;
use toolport::http::HttpServer;
use toolport::sse::SseServer;
use toolport::stdio::StdioServer;
use toolport::{HttpOptions, McpToolset, McpToolsetBuilder, Secret, Timeouts};

use crate::args::{ServerArgs, Transport};

/// A toolset builder for the server the command line names: a stdio child, a URL, or the
/// built-in demo task tracker when none is named.
pub(crate) fn toolset_builder(
    server: &ServerArgs,
    timeouts: Timeouts,
) -> anyhow::Result<McpToolsetBuilder> {
    let builder = if let Some(url) = &server.url {
        let options = http_options(server)?;
        match server.transport {
            Transport::StreamableHttp => McpToolset::builder(HttpServer::new(url).options(options)),
            Transport::Sse => McpToolset::builder(SseServer::new(url).options(options)),
        }
    } else if let Some((program, args)) = server.command.split_first() {
        McpToolset::builder(StdioServer::new(program).args(args))
    } else {
        McpToolset::builder(toolport_demo::DemoConnector)
    };
    Ok(builder
        .timeouts(timeouts)
        .protocol_version(server.protocol.version()))
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
    Ok(options)
}
