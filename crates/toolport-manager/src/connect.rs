//! A server's [`Connector`], made from its [`ServerConfig`] when it starts: every `${...}`
//! expanded from the environment, the values that are secrets kept as
//! [`Secret`](toolport_core::Secret)s.

use std::sync::Arc;
use std::time::Duration;

use toolport_core::Connector;
use toolport_http::HttpServer;
use toolport_sse::SseServer;
use toolport_stdio::StdioServer;

use crate::config::{ConfigError, ServerConfig, TransportConfig, expand};

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
    Ok(match transport {
        TransportConfig::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut server = StdioServer::new(command).args(args);
            for (name, value) in env {
                server = server.env(name, value.expose());
            }
            if let Some(cwd) = cwd {
                server = server.cwd(cwd);
            }
            if let Some(grace) = grace {
                server = server.close_grace(grace / 2).term_grace(grace / 2);
            }
            Arc::new(server)
        }
        TransportConfig::StreamableHttp { url, headers } => {
            let mut server = HttpServer::new(url);
            for (name, value) in headers {
                server = server.header(name, value);
            }
            Arc::new(server)
        }
        TransportConfig::Sse { url, headers } => {
            let mut server = SseServer::new(url);
            for (name, value) in headers {
                server = server.header(name, value);
            }
            Arc::new(server)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<String> {
        (name == "TOKEN").then(|| "s3cret".to_owned())
    }

    #[test]
    fn references_expand_into_the_connector_and_secrets_stay_hidden() {
        let config = ServerConfig::http("http://127.0.0.1:${PORT:-9}/mcp")
            .header("Authorization", "Bearer ${TOKEN}");
        let connector = connector("docs", &config, &lookup, None).unwrap();
        assert!(
            connector.target().contains("http://127.0.0.1:9/mcp"),
            "{}",
            connector.target()
        );
        assert!(!format!("{connector:?}").contains("s3cret"));
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
