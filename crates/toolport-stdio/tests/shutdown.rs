//! Closing and dropping the transport: the child and its whole process group end, and the
//! child is reaped.

mod common;

use std::time::{Duration, Instant};

use rmcp::transport::Transport;
use toolport_stdio::StdioServer;

use common::{alive, announced_pid, eventually, exists, pid_announcing_script, within};

#[tokio::test]
async fn closing_stdin_is_enough_for_a_well_behaved_server() {
    let mut transport = StdioServer::new("cat").spawn().unwrap();
    let pid = transport.pid().unwrap();
    let started = Instant::now();
    within(3.0, transport.close()).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(transport.diagnostics().exit_status().unwrap().success());
    assert!(!exists(pid), "the child is reaped");
}

#[tokio::test]
async fn a_server_ignoring_sigterm_is_killed_with_its_group() {
    let script = pid_announcing_script(r#"trap "" TERM"#);
    let server = StdioServer::new("sh")
        .args(["-c", &script])
        .close_grace(Duration::from_millis(200))
        .term_grace(Duration::from_millis(200));
    let mut transport = server.spawn().unwrap();
    let pid = transport.pid().unwrap();
    let grandchild = announced_pid(&mut transport).await;
    assert!(alive(pid) && alive(grandchild));

    let started = Instant::now();
    within(3.0, transport.close()).await.unwrap();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(400),
        "waited both graces: {took:?}"
    );
    assert!(took < Duration::from_millis(1500), "{took:?}");

    assert!(!exists(pid), "the child is reaped, no zombie");
    assert!(
        eventually(1.0, || !alive(grandchild)).await,
        "the grandchild died too"
    );
    let details = toolport_core::ConnectionDiagnostics::failure_details(&*transport.diagnostics());
    assert_eq!(details.as_deref(), Some("server was killed by signal 9"));
}

#[tokio::test]
async fn a_server_honouring_sigterm_stops_there() {
    let script = pid_announcing_script("");
    let server = StdioServer::new("sh")
        .args(["-c", &script])
        .close_grace(Duration::from_millis(100))
        .term_grace(Duration::from_secs(10));
    let mut transport = server.spawn().unwrap();
    let pid = transport.pid().unwrap();
    let grandchild = announced_pid(&mut transport).await;
    let started = Instant::now();
    within(3.0, transport.close()).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(!exists(pid));
    assert!(eventually(1.0, || !alive(grandchild)).await);
}

#[tokio::test]
async fn dropping_without_close_kills_the_group() {
    let script = pid_announcing_script(r#"trap "" TERM"#);
    let mut transport = StdioServer::new("sh")
        .args(["-c", &script])
        .spawn()
        .unwrap();
    let pid = transport.pid().unwrap();
    let grandchild = announced_pid(&mut transport).await;
    drop(transport);
    assert!(
        eventually(2.0, || !exists(pid)).await,
        "the child is killed and reaped"
    );
    assert!(
        eventually(1.0, || !alive(grandchild)).await,
        "the grandchild died too"
    );
}

#[test]
fn dropping_after_the_runtime_is_gone_still_kills_the_group() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let script = pid_announcing_script(r#"trap "" TERM"#);
    let (transport, pid, grandchild) = runtime.block_on(async {
        let mut transport = StdioServer::new("sh")
            .args(["-c", &script])
            .spawn()
            .unwrap();
        let pid = transport.pid().unwrap();
        let grandchild = announced_pid(&mut transport).await;
        (transport, pid, grandchild)
    });
    drop(runtime);
    drop(transport);
    let deadline = Instant::now() + Duration::from_secs(2);
    while (alive(pid) || alive(grandchild)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid) && !alive(grandchild));
}
