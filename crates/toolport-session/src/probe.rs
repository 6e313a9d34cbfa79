//! [`ProbeTransport`]: the transport under a negotiating handshake. It reads the server's answer
//! to the `server/discover` probe, and when the server refuses it as a version it does not
//! serve (code -32022) while serving an older version with an `initialize` handshake, it hands
//! rmcp the refusal as the sign of an older server, so the session falls back to `initialize`
//! on the same connection instead of failing.

use std::future::Future;
use std::sync::{Arc, Mutex};

use rmcp::model::{ClientRequest, ErrorCode, JsonRpcMessage, ProtocolVersion, RequestId};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use crate::lock::lock;

/// Where the probe stands.
#[derive(Debug)]
enum Probe {
    /// No request sent yet.
    Waiting,
    /// `server/discover` sent with this id; its answer not yet read.
    Sent(RequestId),
    /// The probe is answered, or the handshake did not start with one: the transport only
    /// passes messages on from here.
    Settled,
}

/// A transport that watches the first `server/discover` of a handshake, and keeps why the
/// server refused it ([`refusal`](Self::refusal)).
#[derive(Debug)]
pub(crate) struct ProbeTransport<T> {
    inner: T,
    probe: Probe,
    refusal: Arc<Mutex<Option<String>>>,
}

impl<T> ProbeTransport<T> {
    /// Watches the handshake over `inner` when `negotiating`; otherwise only passes messages on.
    pub(crate) fn new(inner: T, negotiating: bool) -> Self {
        Self {
            inner,
            probe: if negotiating {
                Probe::Waiting
            } else {
                Probe::Settled
            },
            refusal: Arc::default(),
        }
    }

    /// Where the server's refusal of the probe will be kept, in its words, once read: a
    /// negotiation that fell back to `initialize` says why.
    pub(crate) fn refusal(&self) -> Arc<Mutex<Option<String>>> {
        self.refusal.clone()
    }

    /// Notes the probe among the requests sent.
    fn watch_sent(&mut self, message: &TxJsonRpcMessage<RoleClient>) {
        if !matches!(self.probe, Probe::Waiting) {
            return;
        }
        self.probe = match message {
            JsonRpcMessage::Request(request)
                if matches!(request.request, ClientRequest::DiscoverRequest(_)) =>
            {
                Probe::Sent(request.id.clone())
            }
            _ => Probe::Settled,
        };
    }

    /// Reads the answer to the probe, if `message` is it; an older server's refusal is passed
    /// on as one rmcp falls back on.
    fn watch_received(&mut self, message: &mut RxJsonRpcMessage<RoleClient>) {
        let Probe::Sent(probe) = &self.probe else {
            return;
        };
        let answered = match message {
            JsonRpcMessage::Response(response) => response.id == *probe,
            JsonRpcMessage::Error(error) => error.id.as_ref() == Some(probe),
            _ => false,
        };
        if !answered {
            return;
        }
        self.probe = Probe::Settled;
        let JsonRpcMessage::Error(error) = message else {
            return;
        };
        let error = &mut error.error;
        let mut refusal = format!("{} (code {})", error.message, error.code.0);
        if error.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION {
            let served = served_versions(error.data.as_ref());
            if !serves_only_older_versions(&served) {
                return;
            }
            let listed: Vec<&str> = served.iter().map(ProtocolVersion::as_str).collect();
            refusal = format!(
                "it serves only {} (code {})",
                listed.join(", "),
                error.code.0
            );
            // rmcp takes -32022 as a modern server's refusal and gives up; any other error of
            // the probe is its sign of an older server, which gets `initialize`.
            error.code = ErrorCode::METHOD_NOT_FOUND;
        }
        *lock(&self.refusal) = Some(refusal);
    }
}

/// The versions a -32022 refusal's `data.supported` lists, those this SDK knows.
fn served_versions(data: Option<&serde_json::Value>) -> Vec<ProtocolVersion> {
    data.and_then(|data| data.get("supported"))
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .filter_map(|version| {
            ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .find(|known| known.as_str() == version)
                .cloned()
        })
        .collect()
}

/// Whether a server that serves `served` is one of the handshake era: it serves a version with
/// an `initialize` handshake, and none the probe could have settled on.
fn serves_only_older_versions(served: &[ProtocolVersion]) -> bool {
    served.iter().any(ProtocolVersion::has_initialize)
        && served.iter().all(ProtocolVersion::has_initialize)
}

impl<T: Transport<RoleClient> + 'static> Transport<RoleClient> for ProbeTransport<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.watch_sent(&item);
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let mut message = self.inner.receive().await?;
        self.watch_received(&mut message);
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_a_server_of_the_handshake_era_is_an_older_one() {
        let served = |list: serde_json::Value| served_versions(Some(&json!({ "supported": list })));
        assert!(serves_only_older_versions(&served(json!([
            "2024-11-05",
            "2025-11-25"
        ]))));
        assert!(
            !serves_only_older_versions(&served(json!(["2027-01-01"]))),
            "a later version this SDK does not know is not an older server"
        );
        assert!(
            !serves_only_older_versions(&served(json!(["2025-11-25", "2026-07-28"]))),
            "a server that serves 2026-07-28 is not an older one"
        );
        assert!(!serves_only_older_versions(&served_versions(None)));
    }
}
