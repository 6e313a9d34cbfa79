//! Settings that cannot start a server map to the right `ConnectError`.

use toolport_core::{ConnectContext, ConnectError, Connector};
use toolport_stdio::StdioServer;

#[tokio::test]
async fn a_missing_program_is_command_not_found() {
    let error = StdioServer::new("toolport-no-such-program-7f3a")
        .connect(&ConnectContext::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ConnectError::CommandNotFound { command } if command == "toolport-no-such-program-7f3a"),
        "{error:?}"
    );
    assert!(error.is_permanent());
}

#[tokio::test]
async fn an_empty_command_is_invalid() {
    let error = StdioServer::new("")
        .connect(&ConnectContext::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, ConnectError::InvalidSettings { .. }),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_missing_working_directory_is_a_spawn_error() {
    let error = StdioServer::new("cat")
        .cwd("/toolport/no/such/dir")
        .connect(&ConnectContext::default())
        .await
        .unwrap_err();
    assert!(matches!(error, ConnectError::Spawn { .. }), "{error:?}");
}

#[test]
fn target_names_the_command_but_no_env_values() {
    let server = StdioServer::new("npx")
        .arg("-y")
        .args(["server-everything"])
        .env("API_TOKEN", "hunter2")
        .envs([("OTHER", "secret2")]);
    assert_eq!(server.target(), "`npx -y server-everything` over stdio");
    let debug = format!("{server:?}");
    assert!(debug.contains("API_TOKEN"), "{debug}");
    assert!(
        !debug.contains("hunter2") && !debug.contains("secret2"),
        "{debug}"
    );
}
