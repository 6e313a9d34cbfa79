//! A server's [`Connector`], made from its [`ServerConfig`] when it starts: every `${...}`
//! expanded from the environment, the values that are secrets kept as [`Secret`]s.

use std::sync::Arc;
use std::time::Duration;

use toolport_core::{Connector, Secret};
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
    let expanded = |field: &str, template: &str| {
        expand(template, lookup).map_err(|source| ConfigError::Expand {
            server: id.to_owned(),
            field: field.to_owned(),
            source,
        })
    };
    let secrets = |field: &str, pairs: &[(String, Secret)]| {
        pairs
            .iter()
            .map(|(name, value)| {
                let value = expanded(&format!("{field}.{name}"), value.expose())?;
                Ok((name.clone(), Secret::new(value)))
            })
            .collect::<Result<Vec<_>, ConfigError>>()
    };
    Ok(match &config.transport {
        TransportConfig::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut server = StdioServer::new(expanded("command", command)?);
            for (index, arg) in args.iter().enumerate() {
                server = server.arg(expanded(&format!("args[{index}]"), arg)?);
            }
            for (name, value) in secrets("env", env)? {
                server = server.env(name, value.expose());
            }
            if let Some(cwd) = cwd {
                server = server.cwd(expanded("cwd", cwd)?);
            }
            if let Some(grace) = grace {
                server = server.close_grace(grace / 2).term_grace(grace / 2);
            }
            Arc::new(server)
        }
        TransportConfig::StreamableHttp { url, headers } => {
            let mut server = HttpServer::new(expanded("url", url)?);
            for (name, value) in secrets("headers", headers)? {
                server = server.header(name, value);
            }
            Arc::new(server)
        }
        TransportConfig::Sse { url, headers } => {
            let mut server = SseServer::new(expanded("url", url)?);
            for (name, value) in secrets("headers", headers)? {
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
