//! Helpers shared by the integration tests: process checks and messages. Bounded waits are
//! the testkit's `bounded`.
#![allow(dead_code, reason = "each test binary uses a different subset")]

use std::time::Duration;

use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use toolport_stdio::StdioTransport;

/// Whether `pid` is a live process. A zombie counts as dead: in some containers PID 1 never
/// reaps reparented grandchildren.
pub fn alive(pid: u32) -> bool {
    let pid_t = libc::pid_t::try_from(pid).unwrap();
    // SAFETY: signal 0 only checks for existence.
    if unsafe { libc::kill(pid_t, 0) } != 0 {
        return false;
    }
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// Whether `pid` exists at all, zombie or not.
pub fn exists(pid: u32) -> bool {
    let pid_t = libc::pid_t::try_from(pid).unwrap();
    // SAFETY: signal 0 only checks for existence.
    unsafe { libc::kill(pid_t, 0) == 0 }
}

/// Waits up to `secs` for `check` to hold.
pub async fn eventually(secs: f64, mut check: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(secs);
    while tokio::time::Instant::now() < deadline {
        if check() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    check()
}

/// A client message from its JSON text.
pub fn outgoing(json: &str) -> TxJsonRpcMessage<RoleClient> {
    serde_json::from_str(json).unwrap()
}

/// A received message as JSON, to look into.
pub fn as_json(message: &RxJsonRpcMessage<RoleClient>) -> serde_json::Value {
    serde_json::to_value(message).unwrap()
}

/// Receives one message, which must arrive within the testkit's bound.
pub async fn receive(transport: &mut StdioTransport) -> Option<RxJsonRpcMessage<RoleClient>> {
    toolport_testkit::bounded("a message from the server", transport.receive()).await
}

/// A shell script that starts `sleep 30` in the background, announces its pid on stdout as a
/// JSON-RPC logging notification, and waits. `prelude` runs first (say, a trap).
pub fn pid_announcing_script(prelude: &str) -> String {
    format!(
        r#"{prelude}
sleep 30 &
echo "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":$!}}}}"
wait"#
    )
}

/// A shell script that starts a daemon, `sleep 60` in a session of its own, announces the
/// daemon's pid like [`pid_announcing_script`], and then runs `rest`. With `double_fork`, the
/// daemon is started by a subshell that exits before the announcement, so the daemon is
/// orphaned by then: no longer the shell's child, and in no process group of the shell's.
pub fn daemon_announcing_script(double_fork: bool, rest: &str) -> String {
    let start = "setsid sleep 60 </dev/null >/dev/null 2>&1 &";
    let pid = if double_fork {
        // `$(...)` returns once the subshell has exited.
        format!("pid=$( ({start} echo $!) )")
    } else {
        format!("{start}\npid=$!")
    };
    format!(
        r#"{pid}
echo "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"level\":\"info\",\"data\":$pid}}}}"
{rest}"#
    )
}

/// Whether `pid` leads a session of its own: it called `setsid`, so its parent's process
/// group no longer holds it.
pub fn in_a_session_of_its_own(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // After the name: state, parent, process group, session.
    let session = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .nth(3);
    session == Some(pid.to_string().as_str())
}

/// Reads the pid of the daemon [`daemon_announcing_script`] announced, once it leads a session
/// of its own (it called `setsid`), so a test of it cannot pass before it left the group.
pub async fn announced_daemon(transport: &mut StdioTransport) -> u32 {
    let daemon = announced_pid(transport).await;
    assert!(eventually(5.0, || in_a_session_of_its_own(daemon)).await);
    daemon
}

/// Reads the grandchild pid announced by [`pid_announcing_script`] or
/// [`daemon_announcing_script`].
pub async fn announced_pid(transport: &mut StdioTransport) -> u32 {
    let message = receive(transport)
        .await
        .expect("the script announces a pid");
    let pid = as_json(&message)["params"]["data"].as_u64().unwrap();
    u32::try_from(pid).unwrap()
}
