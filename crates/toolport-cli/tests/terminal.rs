//! A server's text on the user's terminal: a tool's result, `--json` and an error's stderr tail
//! show their control characters escaped, under a pseudo-terminal; piped, they are left as the
//! server sent them; and the command prints through `src/terminal.rs` alone.

mod common;

use common::{toolport, toolport_on_terminal};

/// What the server is asked to echo: a clipboard write (OSC 52), a screen clear and a cursor
/// move, a C1 `CSI`, and a right-to-left override.
const HOSTILE: &str = "a\u{1b}]52;c;aGk=\u{7}b\u{1b}[2J\u{1b}[1;1Hc\u{9b}2Jd\u{202e}e";

/// [`HOSTILE`] as the terminal shows it.
const SHOWN: &str = r"a\x1b]52;c;aGk=\x07b\x1b[2J\x1b[1;1Hc\u{9b}2Jd\u{202e}e";

/// The arguments of an `echo` call of [`HOSTILE`] to the fixture's `faulty` server, whose
/// `echo` answers the text alone, as text;
/// `flags` go before the server's command.
fn echo_hostile(flags: &[&str]) -> Vec<String> {
    let arguments = serde_json::json!({ "text": HOSTILE }).to_string();
    let fixture = toolport_fixtures::fixture_binary();
    let server = ["--", fixture.to_str().unwrap(), "faulty"];
    let call = ["call", "echo", &arguments];
    call.iter()
        .chain(flags)
        .chain(&server)
        .map(|arg| (*arg).to_owned())
        .collect()
}

/// A stdio server that writes [`HOSTILE`]'s escape sequences to stderr and exits.
const FAILING_SERVER: &str =
    r#"read line; printf '\033]52;c;aGk=\007\033[2J\302\233fatal: down\n' >&2; exit 1"#;

/// Whether `text` holds a character a terminal would act on: a control character but
/// newline, a C1 control, or a bidi override.
fn holds_controls(text: &str) -> bool {
    text.chars()
        .any(|c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c))
}

#[test]
fn a_result_on_a_terminal_shows_its_control_characters_escaped() {
    let args = echo_hostile(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (status, printed) = toolport_on_terminal(&args, &[]);
    assert_eq!(status, Some(0), "{printed}");
    assert_eq!(printed, format!("{SHOWN}\n"));
}

#[test]
fn json_on_a_terminal_stays_the_same_json_without_raw_controls() {
    let args = echo_hostile(&["--json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (status, printed) = toolport_on_terminal(&args, &[]);
    assert_eq!(status, Some(0), "{printed}");
    assert!(!holds_controls(&printed), "{printed:?}");
    let value: serde_json::Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(value, HOSTILE);
}

#[test]
fn a_stderr_tail_on_a_terminal_is_escaped_in_the_error_and_the_log() {
    let args = ["-v", "tools", "--", "sh", "-c", FAILING_SERVER];
    // No colour, so that any raw escape in the log would be the server's.
    let (status, printed) = toolport_on_terminal(&args, &[("NO_COLOR", "1")]);
    assert_eq!(status, Some(1), "{printed}");
    assert!(!holds_controls(&printed), "{printed:?}");
    let tail = r"stderr: \x1b]52;c;aGk=\x07\x1b[2J\u{9b}fatal: down)";
    let error = printed.lines().last().unwrap();
    assert!(
        error.starts_with("toolport: ") && error.ends_with(tail),
        "{error}"
    );
    let logged = r"toolport_stdio::server_stderr: \x1b]52;c;aGk=\x07\x1b[2J\u{9b}fatal: down";
    assert!(printed.contains(logged), "{printed}");
}

#[test]
fn piped_output_is_left_as_the_server_sent_it() {
    let args = echo_hostile(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = toolport(&args);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(output.stdout, format!("{HOSTILE}\n").into_bytes());

    let output = toolport(&["tools", "--", "sh", "-c", FAILING_SERVER]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.ends_with("stderr: \u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{9b}fatal: down)\n"),
        "{stderr:?}"
    );
}

#[test]
fn the_command_prints_through_the_terminal_module_alone() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut dirs = vec![src.clone()];
    let mut printing = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path != src.join("terminal.rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let prints = ["print!(", "println!(", "eprint!(", "eprintln!(", "stdout()"];
                if prints.iter().any(|print| text.contains(print)) {
                    printing.push(path);
                }
            }
        }
    }
    assert!(
        printing.is_empty(),
        "print through terminal.rs: {printing:?}"
    );
}
