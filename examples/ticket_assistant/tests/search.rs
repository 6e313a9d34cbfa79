//! The ticket assistant with tool search, end to end in each provider's shape: the model is
//! offered the search tool alone, searches in its own words, and is declared exactly what its
//! searches found, turn by turn.

mod common;

use std::sync::Arc;

use serde_json::{Value, json};
use ticket_assistant::{BILLING_TOOLS, Event, ScriptedModel, Step, TicketAssistant, script};
use toolport::provider_messages::ApiShape;
use toolport_testkit::bounded;

use common::{
    approved_ticket, assert_refunded_once, close_cleanly, open_desk, refund_second_invoice,
    results, ticket,
};

/// The search tool's name.
const SEARCH_TOOL: &str = "search_tools";

/// The names each search of the conversation found, in rank order.
fn found_by_search(events: &[Event]) -> Vec<Vec<&str>> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Result {
                name,
                value,
                is_error: false,
            } if name == SEARCH_TOOL => Some(found_names(value)),
            _ => None,
        })
        .collect()
}

fn found_names(search_result: &Value) -> Vec<&str> {
    let tools = search_result["tools"].as_array().unwrap();
    tools
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect()
}

/// What each model turn of `events` should have been declared: the search tool, then every
/// tool found by the searches whose results came before that turn, in the order found.
fn declarations_expected(events: &[Event]) -> Vec<Vec<String>> {
    let mut found = vec![SEARCH_TOOL.to_owned()];
    let mut turns = Vec::new();
    let mut in_turn = false;
    for event in events {
        match event {
            Event::Call { .. } | Event::Answer(_) => {
                if !in_turn {
                    turns.push(found.clone());
                }
                in_turn = true;
            }
            Event::Result { name, value, .. } => {
                in_turn = false;
                if name == SEARCH_TOOL {
                    for tool in found_names(value) {
                        if !found.iter().any(|known| known == tool) {
                            found.push(tool.to_owned());
                        }
                    }
                }
            }
            Event::User(_) => {}
        }
    }
    turns
}

/// A call of the search tool for `limit` tools that meet `need`.
fn search(need: &str, limit: u64) -> Step {
    Step::call(SEARCH_TOOL, json!({"query": need, "limit": limit}))
}

#[tokio::test]
async fn with_search_every_provider_is_declared_only_what_it_found_and_no_refund_is_made() {
    for shape in ApiShape::ALL {
        let desk = open_desk(shape, &BILLING_TOOLS).await;
        let model = ScriptedModel::new(shape, script::double_charge_with_search());
        let tools = Arc::new(desk.tools_with_search());
        let mut assistant = TicketAssistant::new(model, shape, tools);
        let answer = bounded(
            "the conversation",
            assistant.ask(script::QUESTION, &ticket("ticket-T-1042")),
        )
        .await
        .unwrap();
        assert_eq!(answer, script::ANSWER, "{shape}");

        // Each need, in the model's words, ranks the tools it wants first, within the limit
        // asked; no search finds a refund, since no allowlist offers one.
        let events = assistant.events();
        assert_eq!(
            found_by_search(events),
            [
                vec!["search_files", "read_text_file"],
                vec!["list_invoices", "get_invoice"],
                vec![],
            ],
            "{shape}"
        );

        // The search tool alone at first; from then on exactly what was found, turn by turn.
        let offered = assistant.model().offered();
        assert_eq!(offered.len(), 10, "{shape}: nine calls and the answer");
        assert_eq!(offered[0], [SEARCH_TOOL], "{shape}");
        assert_eq!(offered, declarations_expected(events), "{shape}");
        assert_eq!(
            offered[9],
            [
                SEARCH_TOOL,
                "search_files",
                "read_text_file",
                "list_invoices",
                "get_invoice"
            ],
            "{shape}: list_directory was never found, so never declared"
        );

        // The refund the model tried anyway never left the client.
        let errors = results(events, true);
        assert_eq!(
            errors,
            [&json!({"error": "There is no tool named issue_refund."})],
            "{shape}"
        );
        assert_eq!(desk.refunds(), 0, "{shape}");
        let transcript = serde_json::to_string(assistant.transcript()).unwrap();
        assert!(
            transcript.contains("ck-91bd4c"),
            "{shape}: the second invoice's key reached the model"
        );

        close_cleanly(desk, shape).await;
    }
}

#[tokio::test]
async fn with_search_an_allowed_refund_is_found_still_needs_approval_and_is_made_once() {
    let shape = ApiShape::Gemini;
    let with_refunds = ["get_invoice", "list_invoices", "issue_refund"];
    let desk = open_desk(shape, &with_refunds).await;
    let tools = Arc::new(desk.tools_with_search());
    let find_refund = || search(script::SEARCHES[2], 1);

    let model = ScriptedModel::new(
        shape,
        [
            find_refund(),
            refund_second_invoice(),
            Step::answer("I need approval."),
        ],
    );
    let mut assistant = TicketAssistant::new(model, shape, tools.clone());
    bounded(
        "unapproved",
        assistant.ask("Refund it.", &ticket("ticket-T-1042")),
    )
    .await
    .unwrap();
    assert_eq!(found_by_search(assistant.events()), [["issue_refund"]]);
    assert_eq!(
        assistant.model().offered(),
        [
            vec![SEARCH_TOOL],
            vec![SEARCH_TOOL, "issue_refund"],
            vec![SEARCH_TOOL, "issue_refund"],
        ]
    );
    let denied = results(assistant.events(), true);
    assert_eq!(denied.len(), 1, "{:?}", assistant.events());
    assert!(
        denied[0]
            .to_string()
            .contains("needs a billing agent's approval"),
        "{denied:?}"
    );
    assert_eq!(desk.refunds(), 0);

    // Approved by a person: another conversation (its context differs), which searches
    // afresh, and sends the refund twice (a retried turn), which refunds once.
    let approved = approved_ticket();
    let model = ScriptedModel::new(
        shape,
        [
            find_refund(),
            refund_second_invoice(),
            refund_second_invoice(),
            Step::answer("Refunded."),
        ],
    );
    let mut assistant = TicketAssistant::new(model, shape, tools);
    bounded("approved", assistant.ask("Refund it.", &approved))
        .await
        .unwrap();
    assert_eq!(assistant.model().offered()[0], [SEARCH_TOOL]);
    let refunds: Vec<&Value> = results(assistant.events(), false)
        .into_iter()
        .filter(|value| value.get("refund_id").is_some())
        .collect();
    assert_refunded_once(&desk, &refunds, assistant.events());
    desk.close().await;
}
