//! A server's [`Connector`], made from its [`ServerConfig`] when it starts: every `${...}`
//! expanded from the environment, the values that are secrets kept as
//! [`Secret`](toolport_core::Secret)s, and the others shown as written.

use std::sync::Arc;
use std::time::Duration;

use toolport_core::Connector;
use toolport_http::HttpServer;
use toolport_sse::SseServer;
use toolport_stdio::StdioServer;

use crate::config::{ConfigError, ServerConfig, TransportConfig, expand};
use crate::connect_network::network_options;

/// Looks up an environment variable, for `${VAR}`.
pub(crate) type Lookup = dyn Fn(&str) -> Option<String> + Send + Sync;

/// The process environment, as [`Lookup`]. A variable that is not valid Unicode is unset.
pub(crate) fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// The connector for server `id` as `config` describes it, with its references expanded by
/// `lookup`; or the first reference that cannot be, naming its field. A child process given
/// `grace` to close gets half of it after its stdin closes and half after `SIGTERM`, then
/// `SIGKILL` (the stdio defaults without one).
pub(crate) fn connector(
    id: &str,
    config: &ServerConfig,
    lookup: &Lookup,
    grace: Option<Duration>,
) -> Result<Arc<dyn Connector>, ConfigError> {
    let transport = config.transport.try_map_values(|field, template| {
        expand(template, lookup).map_err(|source| ConfigError::Expand {
            server: id.to_owned(),
            field: field.to_owned(),
            source,
        })
    })?;
    // Each value goes to the transport expanded, and is shown as written: a secret in a
    // `${VAR}` never reaches a target, a log line, an error or `Debug` output.
    Ok(match (transport, &config.transport) {
        (
            TransportConfig::Stdio {
                command,
                args,
                env,
                cwd,
            },
            TransportConfig::Stdio {
                command: written_command,
                args: written_args,
                cwd: written_cwd,
                ..
            },
        ) => {
            let mut server = StdioServer::new(command).command_shown_as(written_command);
            for (arg, written) in args.into_iter().zip(written_args) {
                server = server.arg_shown_as(arg, written);
            }
            for (name, value) in env {
                server = server.env(name, value.expose());
            }
            if let (Some(cwd), Some(written)) = (cwd, written_cwd) {
                server = server.cwd_shown_as(cwd, written);
            }
            if let Some(grace) = grace {
                server = server.close_grace(grace / 2).term_grace(grace / 2);
            }
            Arc::new(server)
        }
        (
            TransportConfig::StreamableHttp { url, headers },
            TransportConfig::StreamableHttp { url: written, .. },
        ) => {
            let network = network_options(id, &config.network, lookup)?;
            let mut server = HttpServer::new(url).url_shown_as(written).network(network);
            for (name, value) in headers {
                server = server.header(name, value);
            }
            Arc::new(server)
        }
        (TransportConfig::Sse { url, headers }, TransportConfig::Sse { url: written, .. }) => {
            let network = network_options(id, &config.network, lookup)?;
            let mut server = SseServer::new(url).url_shown_as(written).network(network);
            for (name, value) in headers {
                server = server.header(name, value);
            }
            Arc::new(server)
        }
        (expanded, _) => unreachable!(
            "try_map_values keeps the transport: {} became {}",
            config.transport.kind(),
            expanded.kind()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<String> {
        (name == "TOKEN").then(|| "s3cret".to_owned())
    }

    #[test]
    fn expanded_values_are_shown_as_written_and_secrets_stay_hidden() {
        let http = ServerConfig::http("http://127.0.0.1:${PORT:-9}/${TOKEN}/mcp")
            .header("Authorization", "Bearer ${TOKEN}");
        let sse = ServerConfig::sse("http://127.0.0.1:${PORT:-9}/${TOKEN}/sse");
        let stdio = ServerConfig::stdio("${TOKEN}-server")
            .args(["--api-key=${TOKEN}", "--verbose"])
            .env("API_KEY", "${TOKEN}")
            .cwd("/srv/${TOKEN}");
        let shown = [
            (
                "http",
                http,
                "`http://127.0.0.1:${PORT:-9}/${TOKEN}/mcp` over Streamable HTTP",
            ),
            (
                "sse",
                sse,
                "`http://127.0.0.1:${PORT:-9}/${TOKEN}/sse` over legacy SSE",
            ),
            (
                "stdio",
                stdio,
                "`${TOKEN}-server --api-key=${TOKEN} --verbose` over stdio",
            ),
        ];
        for (id, config, target) in shown {
            let connector = connector(id, &config, &lookup, None).unwrap();
            assert_eq!(connector.target(), target);
            let debug = format!("{connector:?}");
            assert!(!debug.contains("s3cret"), "{debug}");
            assert!(!debug.contains(":9/"), "{debug}");
        }
    }

    #[test]
    fn an_unset_variable_names_the_server_and_the_field() {
        let config = ServerConfig::stdio("server").env("API_KEY", "${MISSING_KEY}");
        let error = connector("billing", &config, &lookup, None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "server `billing`: `env.API_KEY`: the environment variable `MISSING_KEY` is not set, \
             and `${MISSING_KEY}` gives no default (write `${MISSING_KEY:-default}` for one)"
        );
    }
}
