//! Several clients of one fixture sharing one token key, as the replicas of an agent do: the
//! first authorized, the others holding the tokens it saved (with what a refresh needs); and
//! what the fixture's token endpoint was asked from then on.

use std::sync::Arc;

use http::StatusCode;
use tokio::sync::Barrier;
use toolport_auth::TokenStore;

use super::Fixture;
use super::client::Client;

/// A client per store in `stores`, all keeping their tokens under the same key: the first
/// authorized by `fixture`, the others using the tokens it saved.
pub async fn authorized_replicas(
    fixture: &Fixture,
    stores: Vec<Arc<dyn TokenStore>>,
) -> Vec<Arc<Client>> {
    let mut replicas = Vec::new();
    for store in stores {
        let replica = Client::new(fixture, |builder| builder.store(store));
        assert_eq!(replica.call_needing("").await.unwrap(), 200);
        replicas.push(Arc::new(replica));
    }
    let record = fixture.record();
    assert_eq!(record.authorizations.len(), 1, "one sign-in for all");
    assert!(
        record
            .token_requests
            .iter()
            .all(|request| request.form["grant_type"] == "authorization_code"),
        "no refresh before the replicas are ready"
    );
    replicas
}

/// One call from each replica, all started at once; their statuses.
pub async fn call_at_once(replicas: &[Arc<Client>]) -> Vec<StatusCode> {
    let start = Arc::new(Barrier::new(replicas.len()));
    let calls: Vec<_> = replicas
        .iter()
        .map(|replica| {
            let (replica, start) = (replica.clone(), start.clone());
            tokio::spawn(async move {
                start.wait().await;
                replica.call_needing("").await.unwrap()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for call in calls {
        statuses.push(call.await.unwrap());
    }
    statuses
}

/// The token requests after the first `since`: each one's `grant_type` and status. (The
/// fixture takes each refresh token once: a reused one is answered 400.)
pub fn token_requests_after(fixture: &Fixture, since: usize) -> Vec<(String, u16)> {
    fixture.record().token_requests[since..]
        .iter()
        .map(|request| (request.form["grant_type"].clone(), request.status))
        .collect()
}
