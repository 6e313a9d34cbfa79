//! On Linux a stdio server dies with the process that started it, however that process ends,
//! and lives as long as it does: the thread that spawned it ending (a blocking-pool thread,
//! gone after idling) does not take the server down. The owner's death itself is tested
//! through the `toolport` command (`crates/toolport-cli/tests/signals.rs`).
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;

use rmcp::transport::Transport;
use toolport_stdio::StdioServer;

use common::{alive, as_json, eventually, outgoing, receive};

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_server_outlives_the_thread_that_started_it() {
    let runtime = tokio::runtime::Handle::current();
    let (mut transport, thread) = std::thread::spawn(move || {
        let _entered = runtime.enter();
        let transport = StdioServer::new("cat").spawn().unwrap();
        // SAFETY: gettid has no preconditions.
        (transport, unsafe { libc::gettid() })
    })
    .join()
    .unwrap();
    // The thread is gone once /proc no longer lists it: past the point where the kernel
    // signals the children that asked to die with their parent thread.
    let listed = format!("/proc/self/task/{thread}");
    assert!(
        eventually(30.0, || !Path::new(&listed).exists()).await,
        "the starting thread ended"
    );

    let pid = transport.pid().unwrap();
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    transport.send(outgoing(ping)).await.unwrap();
    let echoed = receive(&mut transport).await.expect("cat still answers");
    assert_eq!(as_json(&echoed)["method"], "ping");
    assert!(alive(pid), "the server lives on");
    transport.close().await.unwrap();
}
