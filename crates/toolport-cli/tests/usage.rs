//! A command line clap does not accept: exit status 1 (2 is a tool's `isError`), one stderr
//! line naming the problem, and a hint at the right `--help`. Help and version exit 0.

mod common;

use common::{failure_line, stdout, toolport};

#[test]
fn a_bad_flag_is_one_line_with_a_hint() {
    let line = failure_line(&toolport(&["--bogus"]));
    assert_eq!(
        line,
        "toolport: unexpected argument '--bogus' found; see 'toolport --help'"
    );
}

#[test]
fn the_hint_names_the_subcommand() {
    let line = failure_line(&toolport(&["tools", "--bogus"]));
    assert_eq!(
        line,
        "toolport: unexpected argument '--bogus' found; see 'toolport tools --help'"
    );
}

#[test]
fn a_missing_argument_is_named_on_the_same_line() {
    let line = failure_line(&toolport(&["call"]));
    assert_eq!(
        line,
        "toolport: the following required arguments were not provided: <TOOL>; see 'toolport call --help'"
    );
}

#[test]
fn a_bad_value_says_which_flag_and_what_was_typed() {
    let line = failure_line(&toolport(&["tools", "--timeout-ms", "soon"]));
    assert!(
        line.contains("'soon'") && line.contains("--timeout-ms"),
        "{line}"
    );
    let line = failure_line(&toolport(&["call", "x", "--mapping", "fancy"]));
    assert!(
        line.contains("'fancy'") && line.contains("rich, adk-java or raw"),
        "{line}"
    );
}

#[test]
fn no_command_lists_the_commands() {
    let line = failure_line(&toolport(&[]));
    assert_eq!(
        line,
        "toolport: no command given (one of tools, search, call, batch, resources, read, prompts, complete, lock, check); see 'toolport --help'"
    );
    let line = failure_line(&toolport(&["frob"]));
    assert!(line.contains("unrecognized subcommand 'frob'"), "{line}");
}

#[test]
fn help_and_version_print_and_exit_0() {
    for args in [
        &["--help"][..],
        &["call", "--help"],
        &["help", "batch"],
        &["--version"],
    ] {
        let output = toolport(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(!stdout(&output).is_empty(), "{args:?}");
        assert!(output.stderr.is_empty(), "{args:?}");
    }
}
