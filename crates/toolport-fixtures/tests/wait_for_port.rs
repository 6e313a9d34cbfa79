//! [`wait_for_port`]: succeeds once a port listens, and gives up in time when none does.

use std::io::ErrorKind;
use std::time::{Duration, Instant};

use toolport_fixtures::{HttpFixtureServer, wait_for_port};
use toolport_testkit::TaskTracker;

#[tokio::test]
async fn waits_for_a_listening_port_and_gives_up_on_a_closed_one() {
    let server = HttpFixtureServer::start(TaskTracker::new).await.unwrap();
    wait_for_port(server.port(), Duration::from_secs(1))
        .await
        .unwrap();

    let port = server.port();
    server.stop().await;
    let started = Instant::now();
    let error = wait_for_port(port, Duration::from_millis(100))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TimedOut);
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}
