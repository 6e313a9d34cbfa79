//! `TenantToolsets` over in-process lab servers, on paused time: one build for concurrent first
//! users, failed builds not kept, the least recently used and the idle tenants closed, and a
//! rotation that lets the call in flight finish before the old session closes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolport_fixtures::{InFlightCounter, LabServer};
use toolport_testkit::{DuplexConnector, bounded, join_all};
use toolport_tools::ToolsetError;
use toolport_tools::tenants::{TenantId, TenantToolsets, TenantToolsetsBuilder};
use toolport_tools::{McpToolset, Tool};

/// A connector to a lab server, and the `sleep` calls that server runs.
type Lab = (Arc<DuplexConnector>, InFlightCounter);

/// The lab servers each tenant's toolsets talk to, one connector per toolset built.
#[derive(Clone, Default)]
struct Servers {
    by_tenant: Arc<Mutex<HashMap<TenantId, Vec<Lab>>>>,
    builds: Arc<AtomicUsize>,
}

impl Servers {
    /// A new connector for `tenant`'s next toolset.
    fn connector_for(&self, tenant: &TenantId) -> Arc<DuplexConnector> {
        self.builds.fetch_add(1, Ordering::SeqCst);
        let lab = LabServer::new();
        let sleeps = lab.sleeps();
        let connector = Arc::new(DuplexConnector::new(move || lab.clone()));
        let mut by_tenant = self.by_tenant.lock().unwrap();
        let labs = by_tenant.entry(tenant.clone()).or_default();
        labs.push((connector.clone(), sleeps));
        connector
    }

    /// The `generation`th lab built for `tenant`.
    fn lab(&self, tenant: &str, generation: usize) -> Lab {
        self.by_tenant.lock().unwrap()[&TenantId::from(tenant)][generation].clone()
    }

    /// The servers running for the `generation`th toolset built for `tenant`.
    fn live(&self, tenant: &str, generation: usize) -> usize {
        self.lab(tenant, generation).0.live_servers()
    }

    fn builds(&self) -> usize {
        self.builds.load(Ordering::SeqCst)
    }

    /// A cache whose factory takes a moment (so first users overlap), then builds a toolset
    /// over a new lab server.
    fn cache(
        &self,
        configure: impl FnOnce(TenantToolsetsBuilder) -> TenantToolsetsBuilder,
    ) -> TenantToolsets {
        let servers = self.clone();
        let builder = TenantToolsets::builder(move |tenant: &TenantId| {
            let connector = servers.connector_for(tenant);
            async move {
                tokio::time::sleep(Duration::from_millis(10)).await;
                McpToolset::builder_shared(connector).build().await
            }
        });
        configure(builder).build()
    }
}

/// Waits (on paused time, so without delay) until `done` holds.
async fn until(what: &str, done: impl Fn() -> bool) {
    bounded(what, async {
        while !done() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await;
}

/// Connects `tenant`'s toolset by listing its tools.
async fn use_tenant(tenants: &TenantToolsets, tenant: &str) {
    let toolset = tenants.get(tenant).await.unwrap();
    assert!(!toolset.tools(None).await.unwrap().is_empty());
}

#[tokio::test(start_paused = true)]
async fn concurrent_first_users_of_a_tenant_share_one_build() {
    let servers = Servers::default();
    let tenants = servers.cache(|builder| builder);
    let gets = (0..8).map(|_| {
        let tenants = tenants.clone();
        async move { tenants.get("alice").await.unwrap() }
    });
    let leases = join_all(gets).await;
    assert_eq!(servers.builds(), 1);
    assert!(
        leases
            .iter()
            .all(|lease| std::ptr::eq(&**lease, &*leases[0]))
    );
    assert_eq!(leases[0].tenant().as_str(), "alice");
    assert_eq!(tenants.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_failed_build_is_reported_and_not_kept() {
    let attempts = Arc::new(AtomicUsize::new(0));
    let tenants = TenantToolsets::builder({
        let attempts = attempts.clone();
        move |tenant: &TenantId| {
            let attempt = attempts.fetch_add(1, Ordering::SeqCst);
            let target = tenant.to_string();
            async move {
                if attempt == 0 {
                    return Err(ToolsetError::MissingTools {
                        target,
                        missing: vec!["echo".to_owned()],
                        available: Vec::new(),
                    });
                }
                McpToolset::builder(DuplexConnector::new(LabServer::new))
                    .build()
                    .await
            }
        }
    })
    .build();

    let error = tenants.get("alice").await.unwrap_err();
    assert!(
        error.to_string().contains("alice has no tool named echo"),
        "{error}"
    );
    assert!(tenants.is_empty(), "a failed build leaves nothing behind");

    let toolset = tenants.get("alice").await.unwrap();
    assert!(!toolset.tools(None).await.unwrap().is_empty());
    assert_eq!(attempts.load(Ordering::SeqCst), 2);
}

#[tokio::test(start_paused = true)]
async fn the_least_recently_used_tenant_is_closed_past_the_capacity() {
    let servers = Servers::default();
    let tenants = servers.cache(|builder| builder.capacity(2));
    use_tenant(&tenants, "a").await;
    use_tenant(&tenants, "b").await;
    use_tenant(&tenants, "a").await;
    use_tenant(&tenants, "c").await;

    until("b's server sees its session end", || {
        servers.live("b", 0) == 0
    })
    .await;
    assert_eq!((servers.live("a", 0), servers.live("c", 0)), (1, 1));
    assert_eq!(tenants.len(), 2);

    tenants.close().await;
    until("every server sees its session end", || {
        servers.live("a", 0) + servers.live("c", 0) == 0
    })
    .await;
    assert!(tenants.is_empty());
}

#[tokio::test(start_paused = true)]
async fn an_idle_tenant_is_closed_by_the_sweep() {
    let servers = Servers::default();
    let tenants = servers.cache(|builder| {
        builder
            .idle_timeout(Some(Duration::from_secs(60)))
            .sweep_every(Duration::from_secs(5))
    });
    use_tenant(&tenants, "a").await;

    tokio::time::sleep(Duration::from_secs(50)).await;
    assert_eq!((tenants.len(), servers.live("a", 0)), (1, 1));
    tokio::time::sleep(Duration::from_secs(15)).await;
    assert!(tenants.is_empty());
    until("the idle server sees its session end", || {
        servers.live("a", 0) == 0
    })
    .await;
}

#[tokio::test(start_paused = true)]
async fn an_idle_tenant_is_closed_on_the_next_get_without_a_sweep() {
    let servers = Servers::default();
    let tenants = servers.cache(|builder| builder.idle_timeout(Some(Duration::from_secs(60))));
    use_tenant(&tenants, "a").await;
    tokio::time::sleep(Duration::from_secs(61)).await;
    assert_eq!(tenants.len(), 1, "nothing sweeps without a get");

    use_tenant(&tenants, "b").await;
    until("the idle server sees its session end", || {
        servers.live("a", 0) == 0
    })
    .await;
    assert_eq!((tenants.len(), servers.live("b", 0)), (1, 1));
}

#[tokio::test(start_paused = true)]
async fn a_call_in_flight_across_a_rotation_succeeds_and_the_old_session_closes_after() {
    let servers = Servers::default();
    let tenants = servers.cache(|builder| builder);
    let old = tenants.get("alice").await.unwrap();
    let sleep = old.tool("sleep", None).await.unwrap();
    let call = tokio::spawn(async move {
        let output = sleep.call_raw(json!({"ms": 5_000}), None).await;
        drop(old);
        output
    });
    let (_, sleeps) = servers.lab("alice", 0);
    until("the old server runs the call", || sleeps.now() == 1).await;

    let connector = servers.connector_for(&"alice".into());
    let rotated = McpToolset::builder_shared(connector).build().await.unwrap();
    tenants.rotate("alice", rotated).await;
    use_tenant(&tenants, "alice").await;
    assert_eq!(
        servers.live("alice", 1),
        1,
        "new calls go to the new session"
    );
    assert_eq!(
        servers.live("alice", 0),
        1,
        "the old session waits for its call"
    );
    assert_eq!(sleeps.now(), 1);

    let result = bounded("the call in flight", call).await.unwrap().unwrap();
    assert_eq!(result.is_error, Some(false));
    assert_eq!(toolport_testkit::first_text(&result), "slept 5000 ms");
    until("the old server sees its session end", || {
        servers.live("alice", 0) == 0
    })
    .await;
    assert_eq!(servers.live("alice", 1), 1);
    assert_eq!(servers.builds(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_lease_kept_past_the_grace_does_not_keep_the_old_session_open() {
    let servers = Servers::default();
    let tenants = servers.cache(|builder| builder.retire_grace(Duration::from_secs(1)));
    use_tenant(&tenants, "alice").await;
    let kept = tenants.get("alice").await.unwrap();

    tenants.rebuild("alice").await.unwrap();
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert_eq!(servers.live("alice", 0), 1);
    until("the old server sees its session end", || {
        servers.live("alice", 0) == 0
    })
    .await;
    let echo = kept.tool("echo", None).await.unwrap();
    let late = echo.call_raw(json!({"text": "late"}), None).await;
    assert!(late.is_err(), "the kept lease's session is closed");
}

#[tokio::test(start_paused = true)]
async fn dropping_the_cache_closes_its_toolsets() {
    let servers = Servers::default();
    let tenants = servers.cache(|builder| builder.sweep_every(Duration::from_secs(1)));
    use_tenant(&tenants, "a").await;
    use_tenant(&tenants, "b").await;
    drop(tenants);
    until("every server sees its session end", || {
        servers.live("a", 0) + servers.live("b", 0) == 0
    })
    .await;
}

#[tokio::test]
async fn tenants_of_one_server_share_one_copy_of_its_tools() {
    let tenants = TenantToolsets::builder(|_tenant: &TenantId| {
        McpToolset::builder(DuplexConnector::new(LabServer::new)).build()
    })
    .build();
    let alice = tenants.get("alice").await.unwrap();
    let bob = tenants.get("bob").await.unwrap();
    let alice_echo = bounded("alice's tools", alice.tool("echo", None))
        .await
        .unwrap();
    let bob_echo = bounded("bob's tools", bob.tool("echo", None))
        .await
        .unwrap();
    assert!(
        !std::ptr::eq(alice.session(), bob.session()),
        "two sessions"
    );
    assert!(std::ptr::eq(alice_echo.definition(), bob_echo.definition()));
    assert!(std::ptr::eq(
        alice_echo.declaration(),
        bob_echo.declaration()
    ));

    // A toolset that changes the declaration (an idempotency key hidden from the model) has a
    // copy of its own, and leaves the shared one as it was.
    let keyed = McpToolset::builder(DuplexConnector::new(LabServer::new))
        .replay(
            toolport_tools::ReplayPolicy::default()
                .idempotent("echo", toolport_tools::Idempotency::argument("text")),
        )
        .build()
        .await
        .unwrap();
    let keyed_echo = bounded("keyed tools", keyed.tool("echo", None))
        .await
        .unwrap();
    assert!(std::ptr::eq(
        keyed_echo.definition(),
        alice_echo.definition()
    ));
    assert!(
        keyed_echo.declaration().parameters["properties"]
            .get("text")
            .is_none()
    );
    assert!(
        alice_echo.declaration().parameters["properties"]
            .get("text")
            .is_some()
    );
    keyed.close().await;
    drop((alice, bob));
    tenants.close().await;
}
