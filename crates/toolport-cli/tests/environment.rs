//! The environment of a stdio server started by the command: the minimal one, what `-e` and
//! `--env-pass` add, `--verbose` naming what was left out, and `--` with nothing after it,
//! against `@modelcontextprotocol/server-everything`, whose `get-env` tool returns its
//! environment.

mod common;

use common::{failure_line, toolport_async};
use toolport_integration_tests::peer;

fn server_everything() -> String {
    let path = peer(
        "TOOLPORT_SERVER_EVERYTHING",
        "node/node_modules/.bin/mcp-server-everything",
    );
    path.to_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_server_gets_what_env_and_env_pass_give_and_verbose_names_what_it_did_not_get() {
    let server = server_everything();
    let args = [
        "-v",
        "call",
        "get-env",
        "-e",
        "DATA_FILE=/srv/data.json",
        "--env-pass",
        "API_TOKEN",
        "--",
        &server,
        "stdio",
    ];
    let caller = [
        ("API_TOKEN", "token-given"),
        ("UNPASSED_SECRET", "kept-here"),
    ];
    let output = toolport_async(&args, &caller).await;
    assert!(output.status.success(), "{}", failure_line(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("/srv/data.json"), "{stdout}");
    assert!(stdout.contains("token-given"), "{stdout}");
    assert!(!stdout.contains("kept-here"), "{stdout}");

    let stderr = String::from_utf8_lossy(&output.stderr);
    let left_out = stderr
        .lines()
        .find(|line| line.contains("the server does not get"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(left_out.contains("UNPASSED_SECRET"), "{left_out}");
    assert!(!left_out.contains("API_TOKEN"), "{left_out}");
    assert!(
        !stderr.contains("kept-here"),
        "values are never logged: {stderr}"
    );
}

#[tokio::test]
async fn a_variable_to_pass_that_is_not_set_and_a_malformed_one_are_usage_errors() {
    let server = server_everything();
    let output = toolport_async(
        &[
            "tools",
            "--env-pass",
            "NOT_SET_HERE",
            "--",
            &server,
            "stdio",
        ],
        &[],
    )
    .await;
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        failure_line(&output),
        "toolport: --env-pass NOT_SET_HERE: `NOT_SET_HERE` is not set in this environment"
    );

    let output = toolport_async(&["tools", "-e", "DATA_FILE", "--", &server, "stdio"], &[]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        failure_line(&output).contains("use --env-pass NAME"),
        "{}",
        failure_line(&output)
    );
}

#[tokio::test]
async fn nothing_after_the_separator_is_a_usage_error_not_the_demo() {
    let output = toolport_async(&["tools", "--"], &[]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "the demo did not run");
    assert!(
        failure_line(&output).starts_with("toolport: nothing follows `--`"),
        "{}",
        failure_line(&output)
    );
}
