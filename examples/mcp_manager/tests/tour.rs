//! The example as CI runs it: `mcp_manager` end to end over its own child servers, its
//! failure when they are missing, and the servers' exit when their stdin closes.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use tokio::process::Command;
use toolport_testkit::bounded;

const TOUR: &str = env!("CARGO_BIN_EXE_mcp_manager");
const SERVERS: [&str; 2] = [
    env!("CARGO_BIN_EXE_mcp-manager-tasks-server"),
    env!("CARGO_BIN_EXE_mcp-manager-lab-server"),
];

/// Runs `program` with no stdin, within the testkit's bound, and returns what it printed.
async fn run(program: &Path) -> Output {
    let child = Command::new(program)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let pid = child.id().unwrap();
    let output = bounded("the tour", child.wait_with_output()).await.unwrap();
    let dir = std::env::temp_dir().join(format!("mcp-manager-example-{pid}"));
    assert!(!dir.exists(), "{} is left behind", dir.display());
    output
}

#[tokio::test]
async fn the_tour_shows_every_step_and_exits_0() {
    let output = run(Path::new(TOUR)).await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    for shown in [
        "2 started; lab is disabled",
        "work__add_task",
        "home__list_tasks -> 3 tasks",
        "calc__add, crash, echo, get_image, lab__add",
        "add(20, 22) -> 42  (calc: disabled)",
        "the new configuration was rolled back",
        "home rolled back",
        r#""note": "a field the manager keeps on save""#,
        r#"added ["notes"], removed ["lab"], changed [], unchanged ["work", "home"], errors []"#,
        "  work: stopped\n  home: stopped\n  notes: stopped\n",
    ] {
        assert!(stdout.contains(shown), "{shown:?} is not in:\n{stdout}");
    }
}

#[tokio::test]
async fn without_its_servers_the_tour_fails_naming_the_missing_one() {
    // A hard link, not a copy: `current_exe` then names the link's directory, which holds no
    // servers. Beside the real binary, so that both are on one file system.
    let dir = PathBuf::from(TOUR)
        .parent()
        .unwrap()
        .join(format!("mcp-manager-alone-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let alone = dir.join("mcp_manager");
    std::fs::hard_link(TOUR, &alone).unwrap();

    let output = run(&alone).await;
    std::fs::remove_dir_all(&dir).unwrap();

    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("mcp_manager: ")
            && stderr.contains("mcp-manager-tasks-server is missing"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}

#[tokio::test]
async fn each_server_exits_when_its_stdin_closes() {
    for server in SERVERS {
        let mut child = Command::new(server)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        drop(child.stdin.take());
        let status = bounded(server, child.wait()).await.unwrap();
        assert!(status.success(), "{server}: {status}");
    }
}
