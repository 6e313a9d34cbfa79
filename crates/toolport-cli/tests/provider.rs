//! `toolport tools --provider`: the demo's tools as each provider's function declarations.

mod common;

use common::{failure_line, stdout, toolport};
use serde_json::Value;

fn declarations(provider: &str) -> (Vec<Value>, String) {
    let output = toolport(&["tools", "--provider", provider]);
    assert!(output.status.success(), "{output:?}");
    let declarations = serde_json::from_str(&stdout(&output)).expect("a JSON array");
    (declarations, String::from_utf8(output.stderr).unwrap())
}

#[test]
fn gemini_declarations_name_every_demo_tool() {
    let (declarations, _) = declarations("gemini");
    let names: Vec<&str> = declarations
        .iter()
        .map(|declaration| declaration["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add_task", "complete_task", "list_tasks"]);
    let add_task = &declarations[0];
    assert_eq!(add_task["parameters"]["type"], "object");
    assert!(add_task["parameters"]["properties"]["title"].is_object());
}

#[test]
fn openai_declarations_are_functions_with_a_strict_flag() {
    let (declarations, _) = declarations("openai");
    for declaration in &declarations {
        assert_eq!(declaration["type"], "function");
        assert!(declaration["function"]["strict"].is_boolean());
        assert_eq!(declaration["function"]["parameters"]["type"], "object");
    }
}

#[test]
fn anthropic_declarations_carry_the_input_schema() {
    let (declarations, stderr) = declarations("anthropic");
    assert!(
        declarations
            .iter()
            .all(|d| d["input_schema"]["type"] == "object")
    );
    assert_eq!(
        stderr, "",
        "the demo's schemas need no change for Anthropic"
    );
}

#[test]
fn an_unknown_provider_is_a_usage_error() {
    let line = failure_line(&toolport(&["tools", "--provider", "mistral"]));
    assert!(
        line.contains("unknown provider `mistral`: expected gemini, openai or anthropic"),
        "{line}"
    );
}
