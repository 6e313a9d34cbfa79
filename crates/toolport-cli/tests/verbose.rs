//! `-v`/`--verbose`: logs on stderr, in colour only when stderr is a terminal.

mod common;

use common::toolport;

#[test]
fn verbose_logs_to_a_pipe_without_colour() {
    let output = toolport(&["-v", "tools"]);
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("session closed"),
        "the session's log: {stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}'),
        "no escape codes in a pipe: {stderr:?}"
    );
}

#[test]
fn rust_log_chooses_what_is_logged_and_a_bad_one_is_said_once() {
    let run = |directives: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toolport"))
            .arg("tools")
            .env("RUST_LOG", directives)
            .output()
            .unwrap()
    };
    let output = run("toolport_session=debug");
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("session closed"), "{stderr}");
    assert!(
        !stderr.contains("rmcp::service"),
        "only the target asked for: {stderr}"
    );

    let output = run("toolport=loud");
    assert!(output.status.success(), "the command still runs");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("toolport: RUST_LOG `toolport=loud` is ignored:")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
}
