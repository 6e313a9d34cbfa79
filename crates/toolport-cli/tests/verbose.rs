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
