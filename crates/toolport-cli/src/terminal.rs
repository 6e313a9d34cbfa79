//! Everything the command prints goes out here, and on a terminal a server's text is shown with
//! its control characters escaped: no server moves the cursor, clears the screen, writes the
//! clipboard (OSC 52), plants a link (OSC 8) or reorders a line (bidi overrides) on the user's
//! terminal. Output to a pipe or a file is left as the server sent it.
//!
//! [`outln!`], [`errln!`] and [`out_json`] are the printing boundary: the command prints with
//! nothing else (the log's fields are escaped by `logging.rs` with [`escape_text`]).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::sync::OnceLock;

/// Whether `c` is shown escaped on a terminal: the C0 controls but newline and tab, DEL, the C1
/// controls (U+0080 to U+009F, which some terminals take as `ESC` sequences), and the Unicode
/// bidi controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which reorder
/// what a line shows.
pub(crate) fn is_escaped(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\0'..='\x1f' | '\x7f'..='\u{9f}' => true,
        '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
            true
        }
        _ => false,
    }
}

/// `text` for a terminal: each character [`is_escaped`] written as `\x1b` (a C0 control or
/// DEL) or `\u{202e}` (any other), except a `\r` right before a `\n`, which only ends a line.
/// The escaping is for the eye, not to be undone: a `\` the server sent is left as it is.
pub(crate) fn escape_text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_escaped) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !is_escaped(c) || (c == '\r' && chars.peek() == Some(&'\n')) {
            escaped.push(c);
        } else if c <= '\x7f' {
            let _ = write!(escaped, "\\x{:02x}", u32::from(c));
        } else {
            let _ = write!(escaped, "\\u{{{:x}}}", u32::from(c));
        }
    }
    Cow::Owned(escaped)
}

/// JSON text for a terminal: each character [`is_escaped`] written as a JSON escape
/// (`\u009b`), which is the same JSON. `serde_json` escapes the C0 controls itself, and puts
/// no other raw control character outside a string, so this escapes DEL, the C1 controls and
/// the bidi controls inside strings.
pub(crate) fn escape_json(json: &str) -> Cow<'_, str> {
    if !json.chars().any(|c| c != '\n' && is_escaped(c)) {
        return Cow::Borrowed(json);
    }
    let mut escaped = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if c != '\n' && is_escaped(c) {
            let _ = write!(escaped, "\\u{:04x}", u32::from(c));
        } else {
            escaped.push(c);
        }
    }
    Cow::Owned(escaped)
}

/// Whether stdout is a terminal, asked once.
pub(crate) fn stdout_is_terminal() -> bool {
    static TERMINAL: OnceLock<bool> = OnceLock::new();
    *TERMINAL.get_or_init(|| std::io::stdout().is_terminal())
}

/// Whether stderr is a terminal, asked once.
pub(crate) fn stderr_is_terminal() -> bool {
    static TERMINAL: OnceLock<bool> = OnceLock::new();
    *TERMINAL.get_or_init(|| std::io::stderr().is_terminal())
}

/// `text` as it goes to a stream that is a terminal or not.
pub(crate) fn for_stream(text: &str, terminal: bool) -> Cow<'_, str> {
    if terminal {
        escape_text(text)
    } else {
        Cow::Borrowed(text)
    }
}

/// Prints `text` on stdout, as it is, escaped on a terminal.
pub(crate) fn out(text: &str) {
    print!("{}", for_stream(text, stdout_is_terminal()));
}

/// Prints `text` and a newline on stderr, escaped on a terminal.
pub(crate) fn err_line(text: &str) {
    eprintln!("{}", for_stream(text, stderr_is_terminal()));
}

/// Prints JSON text and a newline on stdout, its control characters JSON-escaped on a
/// terminal.
pub(crate) fn out_json(json: &str) {
    if stdout_is_terminal() {
        println!("{}", escape_json(json));
    } else {
        println!("{json}");
    }
}

/// `println!` through [`out`]: a line on stdout, escaped on a terminal.
macro_rules! outln {
    () => {
        $crate::terminal::out("\n")
    };
    ($($arg:tt)*) => {
        $crate::terminal::out(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` through [`err_line`]: a line on stderr, escaped on a terminal.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::terminal::err_line(&format!($($arg)*))
    };
}

pub(crate) use {errln, outln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_shown_not_run() {
        let hostile =
            "\x1b]52;c;aGk=\x07 \x1b]8;;https://evil\x1b\\link\x1b]8;;\x1b\\ \x1b[2J\x1b[1;1H";
        assert_eq!(
            escape_text(hostile),
            "\\x1b]52;c;aGk=\\x07 \\x1b]8;;https://evil\\x1b\\link\\x1b]8;;\\x1b\\ \\x1b[2J\\x1b[1;1H"
        );
    }

    #[test]
    fn newlines_tabs_and_line_ending_carriage_returns_stay() {
        assert_eq!(escape_text("a\tb\nc\r\nd"), "a\tb\nc\r\nd");
        assert_eq!(escape_text("safe\rrm -rf"), "safe\\x0drm -rf");
        assert_eq!(escape_text("end\r"), "end\\x0d");
        assert_eq!(escape_text("\0\x08\x7f"), "\\x00\\x08\\x7f");
    }

    #[test]
    fn c1_and_bidi_controls_are_escaped_and_other_text_is_not() {
        assert_eq!(escape_text("a\u{9b}2J"), "a\\u{9b}2J");
        assert_eq!(escape_text("\u{85}\u{80}"), "\\u{85}\\u{80}");
        assert_eq!(
            escape_text("admin\u{202e}txt.exe\u{2066}\u{200f}"),
            "admin\\u{202e}txt.exe\\u{2066}\\u{200f}"
        );
        let plain = "überprüfen 🔍 ünïcödé — \u{a0}\u{200b}";
        assert!(matches!(escape_text(plain), Cow::Borrowed(_)));
    }

    #[test]
    fn escaped_json_is_the_same_json() {
        let value = serde_json::json!({
            "text": "\x1b]52;c;aGk=\x07 \u{7f}\u{9b}2J \u{202e}evil",
            "list": ["\u{2069}"],
        });
        let json = serde_json::to_string_pretty(&value).unwrap();
        let escaped = escape_json(&json);
        assert!(
            !escaped.chars().any(|c| c != '\n' && is_escaped(c)),
            "{escaped}"
        );
        assert!(escaped.contains("\\u009b2J \\u202eevil"), "{escaped}");
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn only_a_terminal_gets_escaped_text() {
        assert_eq!(for_stream("\x1b[2J", true), "\\x1b[2J");
        assert_eq!(for_stream("\x1b[2J", false), "\x1b[2J");
    }
}
