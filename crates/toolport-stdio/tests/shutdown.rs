//! Closing and dropping the transport: the child, its whole process group and (on Linux) the
//! descendants that left the group end, the child is reaped, and the diagnostics say how it
//! ended.

mod common;

use std::time::{Duration, Instant};

use rmcp::transport::Transport;
use toolport_core::{ConnectionDiagnostics, ServerExit};
use toolport_stdio::StdioServer;

use common::{
    alive, announced_daemon, announced_pid, daemon_announcing_script, eventually, exists,
    pid_announcing_script,
};
use toolport_testkit::bounded;

#[tokio::test]
async fn closing_stdin_is_enough_for_a_well_behaved_server() {
    let mut transport = StdioServer::new("cat").spawn().unwrap();
    let pid = transport.pid().unwrap();
    bounded("transport.close()", transport.close())
        .await
        .unwrap();
    let exit = transport.diagnostics().server_exit();
    assert!(
        matches!(exit, Some(ServerExit::Exited(status)) if status.success()),
        "it exited by itself, before any signal: {exit:?}"
    );
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

    bounded("transport.close()", transport.close())
        .await
        .unwrap();
    assert_eq!(
        transport.diagnostics().server_exit(),
        Some(ServerExit::Killed {
            grace: Duration::from_millis(200)
        }),
        "both grace periods passed before SIGKILL"
    );

    assert!(!exists(pid), "the child is reaped, no zombie");
    assert!(
        eventually(1.0, || !alive(grandchild)).await,
        "the grandchild died too"
    );
    let details = transport.diagnostics().failure_details();
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
    bounded("transport.close()", transport.close())
        .await
        .unwrap();
    assert_eq!(
        transport.diagnostics().server_exit(),
        Some(ServerExit::Terminated {
            grace: Duration::from_millis(100)
        }),
        "SIGTERM was enough; the 10 s before SIGKILL were not waited"
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

#[cfg(target_os = "linux")]
#[tokio::test]
async fn closing_ends_a_grandchild_that_called_setsid() {
    let script = daemon_announcing_script(false, "wait");
    let server = StdioServer::new("sh")
        .args(["-c", &script])
        .close_grace(Duration::from_millis(100))
        .term_grace(Duration::from_secs(10));
    let mut transport = server.spawn().unwrap();
    let daemon = announced_daemon(&mut transport).await;

    bounded("transport.close()", transport.close())
        .await
        .unwrap();
    assert_eq!(
        transport.diagnostics().server_exit(),
        Some(ServerExit::Terminated {
            grace: Duration::from_millis(100)
        }),
    );
    assert!(
        eventually(5.0, || !alive(daemon)).await,
        "the grandchild in a session of its own got SIGTERM with the group"
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn closing_ends_a_double_forked_daemon_of_a_server_that_exits_by_itself() {
    // The server exits as soon as its stdin closes, leaving its orphaned daemon behind.
    let script = daemon_announcing_script(true, "read _");
    let mut transport = StdioServer::new("sh")
        .args(["-c", &script])
        .spawn()
        .unwrap();
    let daemon = announced_daemon(&mut transport).await;

    bounded("transport.close()", transport.close())
        .await
        .unwrap();
    let exit = transport.diagnostics().server_exit();
    assert!(
        matches!(exit, Some(ServerExit::Exited(_))),
        "it exited by itself: {exit:?}"
    );
    assert!(
        eventually(5.0, || !alive(daemon)).await,
        "the daemon, seen before stdin closed, was killed once the server had exited"
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn dropping_ends_a_double_forked_daemon() {
    let script = daemon_announcing_script(true, "read _");
    let mut transport = StdioServer::new("sh")
        .args(["-c", &script])
        .spawn()
        .unwrap();
    let daemon = announced_daemon(&mut transport).await;

    drop(transport);
    assert!(
        eventually(5.0, || !alive(daemon)).await,
        "the daemon died with the server"
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
