//! How rmcp's and the transports' errors become [`SessionError`]s: the error-chain markers
//! decide, so that no transport needs to be known here.

use rmcp::ServiceError;
use rmcp::model::ProtocolVersion;
use rmcp::service::ClientInitializeError;
use toolport_core::{
    AuthorizationRequired, ConnectError, ConnectionDiagnostics, NotDelivered, ProtocolChoice,
};

use super::SessionError;
use crate::request::RequestFailure;

impl SessionError {
    /// A connector's failure: a refusal of our credentials is [`SessionError::Unauthorized`].
    pub(crate) fn from_connect(target: &str, source: ConnectError) -> Self {
        match AuthorizationRequired::find(&source) {
            Some(refusal) => Self::Unauthorized {
                target: target.to_owned(),
                method: "connect".to_owned(),
                refusal: refusal.clone(),
            },
            None => Self::Connect {
                target: target.to_owned(),
                source,
            },
        }
    }

    /// A failed handshake at `protocol`, explained by the transport's `diagnostics`.
    pub(crate) fn from_initialize(
        target: &str,
        protocol: &ProtocolChoice,
        error: ClientInitializeError,
        diagnostics: &dyn ConnectionDiagnostics,
    ) -> Self {
        // rmcp keeps a send failure's transport error out of the source chain; look inside it.
        let refusal = match &error {
            ClientInitializeError::TransportError { error, .. } => {
                AuthorizationRequired::find(error)
            }
            other => AuthorizationRequired::find(other),
        };
        if let Some(refusal) = refusal {
            return Self::Unauthorized {
                target: target.to_owned(),
                method: "initialize".to_owned(),
                refusal: refusal.clone(),
            };
        }
        let details = diagnostics.failure_details();
        let permanent = matches!(
            error,
            ClientInitializeError::NoCompatibleProtocolVersion { .. }
                | ClientInitializeError::JsonRpcError(_)
        );
        let reason = match &error {
            ClientInitializeError::ConnectionClosed(_) => {
                "the server closed the connection".to_owned()
            }
            // The transport's own words are in the details; rmcp's wrapper adds only noise.
            ClientInitializeError::TransportError { .. } if details.is_some() => {
                "could not send the request".to_owned()
            }
            ClientInitializeError::JsonRpcError(data) => {
                format!(
                    "the server refused: {} (code {})",
                    data.message, data.code.0
                )
            }
            ClientInitializeError::NoCompatibleProtocolVersion {
                server_supported, ..
            } => no_common_version(protocol, server_supported),
            other => other.to_string(),
        };
        Self::Initialize {
            target: target.to_owned(),
            reason,
            details,
            permanent,
            source: Some(Box::new(error)),
        }
    }

    /// A request that got no answer, as [`request::send`](crate::request::send) says why.
    pub(crate) fn from_failure(
        target: &str,
        method: String,
        failure: RequestFailure,
        diagnostics: &dyn ConnectionDiagnostics,
    ) -> Self {
        match failure {
            RequestFailure::TimedOut { waited, cancelled } => Self::RequestTimeout {
                target: target.to_owned(),
                method,
                timeout: waited,
                cancelled,
            },
            RequestFailure::NotSent(error) => Self::not_sent(target, method, error, diagnostics),
            RequestFailure::Failed {
                error: ServiceError::McpError(error),
                request: Some(id),
            } if diagnostics.answer_lost(&id) => Self::AnswerLost {
                target: target.to_owned(),
                method,
                details: Some(error.message.into_owned()),
            },
            RequestFailure::Failed { error, .. } => {
                Self::from_service(target, method, error, diagnostics)
            }
        }
    }

    /// A request that rmcp could not even hand to its worker: the transport is already down, so
    /// the request surely never left.
    pub(crate) fn not_sent(
        target: &str,
        method: String,
        error: ServiceError,
        diagnostics: &dyn ConnectionDiagnostics,
    ) -> Self {
        Self::NotSent {
            target: target.to_owned(),
            method,
            details: diagnostics.failure_details(),
            source: Some(Box::new(error)),
        }
    }

    /// A request that rmcp failed: a JSON-RPC error, a refusal, a message that never left, or
    /// a connection lost under it (explained by the transport's `diagnostics`).
    pub(crate) fn from_service(
        target: &str,
        method: String,
        error: ServiceError,
        diagnostics: &dyn ConnectionDiagnostics,
    ) -> Self {
        let target = target.to_owned();
        match error {
            ServiceError::McpError(error) => Self::Rpc {
                target,
                method,
                error,
            },
            ServiceError::UnexpectedResponse => Self::UnexpectedResponse { target, method },
            error => {
                tracing::debug!(%error, "request failed on the transport");
                if let Some(refusal) = AuthorizationRequired::find(&error) {
                    let refusal = refusal.clone();
                    return Self::Unauthorized {
                        target,
                        method,
                        refusal,
                    };
                }
                let details = diagnostics.failure_details();
                let source = Some(Box::new(error) as toolport_core::BoxError);
                if source
                    .as_deref()
                    .is_some_and(|error| NotDelivered::find(error))
                {
                    Self::NotSent {
                        target,
                        method,
                        details,
                        source,
                    }
                } else {
                    Self::ConnectionLost {
                        target,
                        method,
                        details,
                        source,
                    }
                }
            }
        }
    }
}

/// Why a handshake at `protocol` found no version in common with a server that serves
/// `served`, and, when negotiating would have found one, how to ask for it.
fn no_common_version(protocol: &ProtocolChoice, served: &[ProtocolVersion]) -> String {
    let asked = match protocol {
        ProtocolChoice::Pinned(version) => version.clone(),
        _ => ProtocolChoice::PREFERRED,
    };
    let listed: Vec<&str> = served.iter().map(ProtocolVersion::as_str).collect();
    let mut reason = format!(
        "the server does not serve protocol version {asked}; it serves {}",
        if listed.is_empty() {
            "none it named".to_owned()
        } else {
            listed.join(", ")
        }
    );
    if matches!(protocol, ProtocolChoice::Pinned(_))
        && served
            .iter()
            .any(|version| ProtocolVersion::KNOWN_VERSIONS.contains(version))
    {
        reason.push_str(
            ". Negotiating would connect: `--protocol auto` on the command line, \
             `ProtocolChoice::Negotiate` (the default) in a builder",
        );
    }
    reason
}
