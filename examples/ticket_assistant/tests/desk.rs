//! The ticket assistant end to end: the filesystem server as a child process, the billing
//! server over Streamable HTTP, and the scripted model in each provider's shape.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Value, json};
use ticket_assistant::{
    BILLING_TOOLS, Event, FILE_TOOLS, ScriptedModel, Step, SupportDesk, TicketAssistant, script,
    tickets_dir,
};
use toolport::provider_messages::ApiShape;
use toolport_testkit::bounded;

use common::{
    approved_ticket, assert_refunded_once, close_cleanly, open_desk, refund_second_invoice,
    results, ticket,
};

/// The declaration of `name` among the desk's tools, in the provider's JSON.
async fn declaration(desk: &SupportDesk, name: &str) -> Value {
    for toolset in desk.toolsets() {
        let tools = toolset.mcp_tools(None).await.unwrap();
        if let Some(tool) = tools.iter().find(|tool| tool.definition().name == name) {
            return tool.function_declaration().unwrap().clone();
        }
    }
    panic!("{name} is not offered");
}

/// Every object schema in `schema`, the root included.
fn objects(schema: &Value) -> Vec<&Value> {
    let mut found = Vec::new();
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if map.get("type") == Some(&json!("object")) {
                    found.push(value);
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    found
}

#[tokio::test]
async fn every_provider_gets_five_read_tools_and_no_refund_is_made() {
    for shape in ApiShape::ALL {
        let desk = open_desk(shape, &BILLING_TOOLS).await;
        let model = ScriptedModel::new(shape, script::double_charge());
        let mut assistant = TicketAssistant::new(model, shape, Arc::new(desk.tools()));
        let answer = bounded(
            "the conversation",
            assistant.ask(script::QUESTION, &ticket("ticket-T-1042")),
        )
        .await
        .unwrap();
        assert!(answer.contains("a billing agent should refund"), "{answer}");

        // Five declarations at every turn: the three file reads and the two billing reads.
        let offered = assistant.model().offered();
        assert_eq!(offered.len(), 7, "{shape}: six calls and the answer");
        let expected: BTreeSet<&str> = FILE_TOOLS.iter().chain(&BILLING_TOOLS).copied().collect();
        for names in offered {
            let names: BTreeSet<&str> = names.iter().map(String::as_str).collect();
            assert_eq!(names, expected, "{shape}");
        }

        // The refund the model tried never left the client.
        let refund_result = assistant
            .events()
            .iter()
            .find(|event| matches!(event, Event::Result { name, .. } if name == "issue_refund"))
            .unwrap();
        let Event::Result {
            value, is_error, ..
        } = refund_result
        else {
            unreachable!()
        };
        assert!(is_error);
        assert_eq!(value["error"], "There is no tool named issue_refund.");
        assert_eq!(desk.refunds(), 0, "{shape}");

        // The other results reached the model, in its API's shape.
        let transcript = serde_json::to_string(assistant.transcript()).unwrap();
        assert!(
            transcript.contains("ck-91bd4c"),
            "{shape}: the second invoice's key"
        );
        let answered = |key: &str, value: &str| {
            let messages = assistant.transcript().iter();
            messages.filter(|message| message[key] == value).count()
        };
        let expected = |answered_in: ApiShape| if shape == answered_in { 6 } else { 0 };
        assert_eq!(
            answered("role", "tool"),
            expected(ApiShape::OpenAiChat),
            "{shape}"
        );
        assert_eq!(
            answered("type", "function_call_output"),
            expected(ApiShape::OpenAiResponses),
            "{shape}"
        );

        close_cleanly(desk, shape).await;
    }
}

#[tokio::test]
async fn the_declarations_follow_each_providers_rules() {
    let desk = open_desk(ApiShape::Gemini, &BILLING_TOOLS).await;
    let gemini = declaration(&desk, "list_invoices").await;
    assert_eq!(gemini["name"], "list_invoices");
    let text = gemini.to_string();
    for rejected in ["additionalProperties", "$schema", "$defs"] {
        assert!(
            !text.contains(rejected),
            "Gemini rejects {rejected}: {text}"
        );
    }
    desk.close().await;

    let desk = open_desk(ApiShape::OpenAiChat, &BILLING_TOOLS).await;
    let openai = declaration(&desk, "list_invoices").await;
    assert_eq!(openai["type"], "function");
    assert_eq!(openai["function"]["strict"], true, "{openai}");
    let parameters = &openai["function"]["parameters"];
    assert_eq!(
        parameters["required"],
        json!(["customer_id", "month"]),
        "strict mode requires every property: {parameters}"
    );
    for object in objects(parameters) {
        assert_eq!(object["additionalProperties"], false, "{object}");
    }
    desk.close().await;

    let desk = open_desk(ApiShape::Anthropic, &BILLING_TOOLS).await;
    let anthropic = declaration(&desk, "get_invoice").await;
    assert_eq!(anthropic["input_schema"]["type"], "object", "{anthropic}");
    desk.close().await;
}

#[tokio::test]
async fn the_write_tools_of_the_filesystem_server_are_never_offered() {
    let shape = ApiShape::Gemini;
    let desk = open_desk(shape, &BILLING_TOOLS).await;
    let [files, _] = desk.toolsets();
    let mut names: Vec<String> = files
        .mcp_tools(None)
        .await
        .unwrap()
        .iter()
        .map(|tool| tool.definition().name.to_string())
        .collect();
    names.sort();
    assert_eq!(names, ["list_directory", "read_text_file", "search_files"]);

    let model = ScriptedModel::new(
        shape,
        [
            Step::call(
                "write_file",
                json!({"path": "open/T-1042.md", "content": "resolved"}),
            ),
            Step::call("read_text_file", json!({"path": "../Cargo.toml"})),
            Step::answer("I could not change the ticket."),
        ],
    );
    let mut assistant = TicketAssistant::new(model, shape, Arc::new(desk.tools()));
    bounded(
        "the conversation",
        assistant.ask("Close T-1042.", &ticket("t")),
    )
    .await
    .unwrap();
    let errors: Vec<String> = results(assistant.events(), true)
        .into_iter()
        .map(Value::to_string)
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].contains("There is no tool named write_file"),
        "{errors:?}"
    );
    assert!(
        errors[1].contains("outside the served directory"),
        "{errors:?}"
    );
    let ticket_text = std::fs::read_to_string(tickets_dir().join("open/T-1042.md")).unwrap();
    assert!(
        ticket_text.contains("Status: open"),
        "the ticket is unchanged"
    );
    desk.close().await;
}

#[tokio::test]
async fn once_allowed_a_refund_still_needs_approval_and_is_made_once() {
    let shape = ApiShape::OpenAiChat;
    let with_refunds = ["get_invoice", "list_invoices", "issue_refund"];
    let desk = open_desk(shape, &with_refunds).await;
    // The key is the client's to make: the model never sees the argument.
    let refund = declaration(&desk, "issue_refund").await;
    let properties = &refund["function"]["parameters"]["properties"];
    assert!(properties.get("idempotency_key").is_none(), "{refund}");

    // The model claims approval; only the application's context counts.
    let model = ScriptedModel::new(
        shape,
        [
            Step::call(
                "issue_refund",
                json!({"invoice_id": "INV-2026-0918", "reason": "approved by the user"}),
            ),
            Step::answer("I need approval."),
        ],
    );
    let mut assistant = TicketAssistant::new(model, shape, Arc::new(desk.tools()));
    bounded(
        "unapproved",
        assistant.ask("Refund it.", &ticket("ticket-T-1042")),
    )
    .await
    .unwrap();
    let denied = assistant.events().iter().any(|event| {
        matches!(event, Event::Result { value, is_error: true, .. }
            if value.to_string().contains("needs a billing agent's approval"))
    });
    assert!(denied, "{:?}", assistant.events());
    assert_eq!(desk.refunds(), 0);

    // Approved by a person, and sent twice for the same ticket (a retried turn): one refund.
    let approved = approved_ticket();
    let model = ScriptedModel::new(
        shape,
        [
            refund_second_invoice(),
            refund_second_invoice(),
            Step::answer("Refunded."),
        ],
    );
    let mut assistant = TicketAssistant::new(model, shape, Arc::new(desk.tools()));
    bounded("approved", assistant.ask("Refund it.", &approved))
        .await
        .unwrap();
    let refunds = results(assistant.events(), false);
    assert_refunded_once(&desk, &refunds, assistant.events());
    desk.close().await;
}
