//! The command against a malicious server, a real child process: schemas that nest thousands
//! of levels or grow to 150 MB once their `$ref`s are inlined, and results nested as deep as
//! JSON allows. Each run ends on its own with exit 0; none aborts.

mod common;

use common::{stdout, toolport};
use serde_json::Value;

/// The `toolport-fixture hostile-schemas` server, as the part after `--`.
fn hostile_server() -> Vec<String> {
    let fixture = toolport_fixtures::fixture_binary();
    [
        fixture.to_str().unwrap(),
        "hostile-schemas",
        "--lifetime-secs",
        "60",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// Runs `toolport` with `args`, then `--` and the hostile server.
fn against_hostile_server(args: &[&str]) -> std::process::Output {
    let server = hostile_server();
    let mut full: Vec<&str> = args.to_vec();
    full.push("--");
    full.extend(server.iter().map(String::as_str));
    toolport(&full)
}

#[test]
fn every_provider_declares_the_hostile_tools_and_says_what_it_cut() {
    for provider in ["gemini", "openai", "anthropic"] {
        let output = against_hostile_server(&["tools", "--provider", provider]);
        assert!(output.status.success(), "{provider}: {output:?}");
        let declarations: Vec<Value> = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(declarations.len(), 3, "{provider}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        if provider == "gemini" {
            assert!(
                stderr.contains("inlining it would pass the bound of 128 levels of nesting"),
                "{stderr}"
            );
            assert!(
                stderr.contains("inlining it would pass the bound of 262144 bytes added"),
                "{stderr}"
            );
        }
    }
}

#[test]
fn the_hostile_tools_are_called_and_a_deep_result_is_printed() {
    let output = against_hostile_server(&["call", "deep", r#"x:=[["a"]]"#]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(stdout(&output).trim(), "ok");

    let output = against_hostile_server(&["call", "deep_result"]);
    assert!(output.status.success(), "{output:?}");
    let printed: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(printed.to_string().contains("bottom"), "{printed}");
}
