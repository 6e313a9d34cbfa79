//! [`StandardConnectors`]: the connectors of Toolport's own transports, made from a server's
//! entry with every `${...}` expanded, the values that are secrets kept as
//! [`Secret`](toolport_core::Secret)s, and the others shown as written.

use std::sync::Arc;

use toolport_core::Connector;
#[cfg(feature = "http")]
use toolport_http::HttpServer;
#[cfg(any(feature = "http", feature = "sse"))]
use toolport_http_client::WithHttpOptions;
#[cfg(feature = "sse")]
use toolport_sse::SseServer;
#[cfg(feature = "stdio")]
use toolport_stdio::StdioServer;

#[cfg(any(feature = "http", feature = "sse"))]
use crate::connect_network::network_options;
use crate::{ConfigError, ConnectorFactory, ServerToConnect, TransportConfig};

/// The connectors of Toolport's own transports, the manager's default
/// [`ConnectorFactory`]: stdio, Streamable HTTP and legacy SSE, each behind the crate feature
/// of the same name (all on by default).
///
/// Each value is expanded when the connector is made, and shown as written: a secret in a
/// `${VAR}` never reaches a target, a log line, an error or `Debug` output. A factory of your
/// own can start from [`stdio`](Self::stdio), [`http`](Self::http) or [`sse`](Self::sse) to
/// change one server's connector, and hand every other entry to
/// [`connector`](ConnectorFactory::connector).
///
/// # Examples
///
/// An authorizer for one server's HTTP requests (`toolport-auth`'s OAuth client, say), and
/// every other server as usual:
///
/// ```
/// use std::sync::Arc;
/// use toolport_core::Connector;
/// use toolport_http_client::{Authorizer, WithHttpOptions};
/// use toolport_manager::{ConfigError, ConnectorFactory, ServerToConnect, StandardConnectors};
///
/// #[derive(Debug)]
/// struct GithubAuthorized {
///     github: Arc<dyn Authorizer>,
/// }
///
/// impl ConnectorFactory for GithubAuthorized {
///     fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
///         if server.id() != "github" {
///             return StandardConnectors.connector(server);
///         }
///         let http = StandardConnectors::http(server)?.authorizer(Arc::clone(&self.github));
///         Ok(Arc::new(http))
///     }
/// }
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct StandardConnectors;

impl StandardConnectors {
    /// The connector of a stdio server, to change before it is used; an error for an entry of
    /// another transport. A child process given a [`grace`](ServerToConnect::grace) to close
    /// gets half of it after its stdin closes and half after `SIGTERM`, then `SIGKILL` (the
    /// stdio defaults without one).
    #[cfg(feature = "stdio")]
    pub fn stdio(server: &ServerToConnect<'_>) -> Result<StdioServer, ConfigError> {
        let config = server.config();
        let (
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
        ) = (expanded(server)?, &config.transport)
        else {
            return Err(not_of(server, "stdio"));
        };
        let mut stdio = StdioServer::new(command).command_shown_as(written_command);
        for (arg, written) in args.into_iter().zip(written_args) {
            stdio = stdio.arg_shown_as(arg, written);
        }
        for (name, value) in env {
            stdio = stdio.env(name, value.expose());
        }
        if let (Some(cwd), Some(written)) = (cwd, written_cwd) {
            stdio = stdio.cwd_shown_as(cwd, written);
        }
        if let Some(grace) = server.grace() {
            stdio = stdio.close_grace(grace / 2).term_grace(grace / 2);
        }
        Ok(stdio)
    }

    /// The connector of a Streamable HTTP server, to change before it is used (an
    /// authorizer, say); an error for an entry of another transport.
    #[cfg(feature = "http")]
    pub fn http(server: &ServerToConnect<'_>) -> Result<HttpServer, ConfigError> {
        let config = server.config();
        let (
            TransportConfig::StreamableHttp { url, headers },
            TransportConfig::StreamableHttp { url: written, .. },
        ) = (expanded(server)?, &config.transport)
        else {
            return Err(not_of(server, "http"));
        };
        let network = network_options(server, &config.network)?;
        let mut http = HttpServer::new(url).url_shown_as(written).network(network);
        for (name, value) in headers {
            http = http.header(name, value);
        }
        Ok(http)
    }

    /// The connector of a legacy SSE server, to change before it is used; an error for an
    /// entry of another transport.
    #[cfg(feature = "sse")]
    pub fn sse(server: &ServerToConnect<'_>) -> Result<SseServer, ConfigError> {
        let config = server.config();
        let (TransportConfig::Sse { url, headers }, TransportConfig::Sse { url: written, .. }) =
            (expanded(server)?, &config.transport)
        else {
            return Err(not_of(server, "sse"));
        };
        let network = network_options(server, &config.network)?;
        let mut sse = SseServer::new(url).url_shown_as(written).network(network);
        for (name, value) in headers {
            sse = sse.header(name, value);
        }
        Ok(sse)
    }
}

impl ConnectorFactory for StandardConnectors {
    /// The connector of the entry's transport; an error for a custom transport, or one whose
    /// feature is off.
    fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
        match &server.config().transport {
            #[cfg(feature = "stdio")]
            TransportConfig::Stdio { .. } => Ok(Arc::new(Self::stdio(server)?)),
            #[cfg(feature = "http")]
            TransportConfig::StreamableHttp { .. } => Ok(Arc::new(Self::http(server)?)),
            #[cfg(feature = "sse")]
            TransportConfig::Sse { .. } => Ok(Arc::new(Self::sse(server)?)),
            TransportConfig::Custom { kind } => Err(server.error(format!(
                "`type` is `{kind}`, which Toolport does not know: expected `stdio`, `http` \
                 (Streamable HTTP) or `sse`, or give the manager a `ConnectorFactory` that makes \
                 `{kind}` connectors"
            ))),
            #[allow(
                unreachable_patterns,
                reason = "reached when a transport's feature is off"
            )]
            other => Err(server.error(format!(
                "is a `{}` server, and toolport-manager was built without its `{}` feature",
                other.kind(),
                other.kind()
            ))),
        }
    }
}

/// The entry's transport with its `${...}` references expanded, or the first that cannot be.
#[cfg(any(feature = "stdio", feature = "http", feature = "sse"))]
fn expanded(server: &ServerToConnect<'_>) -> Result<TransportConfig, ConfigError> {
    (server.config().transport).try_map_values(|field, template| server.expand(field, template))
}

/// The error for asking the connector of `expected` from an entry of another transport.
#[cfg(any(feature = "stdio", feature = "http", feature = "sse"))]
fn not_of(server: &ServerToConnect<'_>, expected: &str) -> ConfigError {
    server.error(format!(
        "is a `{}` server, not `{expected}`",
        server.config().transport.kind()
    ))
}

#[cfg(all(test, feature = "stdio", feature = "http", feature = "sse"))]
mod tests {
    use super::*;
    use crate::ServerConfig;

    fn lookup(name: &str) -> Option<String> {
        (name == "TOKEN").then(|| "s3cret".to_owned())
    }

    fn connector(id: &str, config: &ServerConfig) -> Result<Arc<dyn Connector>, ConfigError> {
        StandardConnectors.connector(&ServerToConnect::new(id, config, &lookup, None))
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
            let connector = connector(id, &config).unwrap();
            assert_eq!(connector.target(), target);
            let debug = format!("{connector:?}");
            assert!(!debug.contains("s3cret"), "{debug}");
            assert!(!debug.contains(":9/"), "{debug}");
        }
    }

    #[test]
    fn an_unset_variable_names_the_server_and_the_field() {
        let config = ServerConfig::stdio("server").env("API_KEY", "${MISSING_KEY}");
        let error = connector("billing", &config).unwrap_err();
        assert_eq!(
            error.to_string(),
            "server `billing`: `env.API_KEY`: the environment variable `MISSING_KEY` is not set, \
             and `${MISSING_KEY}` gives no default (write `${MISSING_KEY:-default}` for one)"
        );
    }

    #[test]
    fn a_custom_transport_is_refused_naming_the_known_ones_and_the_factory() {
        let config = ServerConfig::custom("websocket").other_field("url", "ws://127.0.0.1:9");
        let error = connector("chat", &config).unwrap_err();
        assert_eq!(
            error.to_string(),
            "server `chat`: `type` is `websocket`, which Toolport does not know: expected \
             `stdio`, `http` (Streamable HTTP) or `sse`, or give the manager a \
             `ConnectorFactory` that makes `websocket` connectors"
        );
    }

    #[test]
    fn a_standard_connector_of_another_transport_is_refused() {
        let config = ServerConfig::stdio("server");
        let server = ServerToConnect::new("files", &config, &lookup, None);
        let error = StandardConnectors::http(&server).unwrap_err();
        assert_eq!(
            error.to_string(),
            "server `files`: is a `stdio` server, not `http`"
        );
    }
}
