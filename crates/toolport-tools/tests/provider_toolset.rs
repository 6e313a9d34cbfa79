//! A toolset fitted to a model provider: adapted declarations, model-facing names that map back
//! to the server's, strict-mode nulls taken out before the call, and warm turns that adapt
//! nothing again; a namer or schema adapter of the caller's own in place of the provider's.

use std::sync::Arc;

use serde_json::json;
use toolport_testkit::scripted;
use toolport_tools::names::ToolNamer;
use toolport_tools::schema::Provider;
use toolport_tools::{DescriptionPolicy, McpToolset, ModelFit, Tool};

#[tokio::test]
async fn openai_declarations_are_strict_and_a_null_for_an_optional_argument_is_taken_out() {
    let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .fit_to(Provider::OpenAi)
        .build()
        .await
        .unwrap();
    let add_task = toolset.tool("add_task", None).await.unwrap();
    let function = add_task
        .function_declaration()
        .expect("an OpenAI declaration");
    assert_eq!(function["function"]["name"], "add_task");
    assert_eq!(function["function"]["strict"], true);
    let parameters = &add_task.declaration().parameters;
    assert_eq!(parameters["additionalProperties"], false);
    assert_eq!(parameters["required"], json!(["title", "priority"]));

    // What a strict model sends for the priority it would have left out.
    let output = add_task
        .call(json!({"title": "Tag v1.2", "priority": null}), None)
        .await
        .unwrap();
    assert!(!output.is_error, "{output:?}");
    assert_eq!(
        output.value["priority"], "normal",
        "the server's default applied"
    );
    toolset.close().await;
}

#[tokio::test]
async fn model_facing_names_call_the_servers_tools() {
    let (connector, server) = scripted::pair();
    let toolset = Arc::new(
        McpToolset::builder(connector)
            .fit_to(Provider::Gemini)
            .build()
            .await
            .unwrap(),
    );
    let listing = tokio::spawn({
        let toolset = toolset.clone();
        async move { toolset.mcp_tools(None).await.unwrap() }
    });
    let mut connection = server.accept().await;
    connection.complete_handshake().await;
    let list = connection.expect_request("tools/list").await;
    let tool = |name: &str| json!({"name": name, "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}});
    connection.respond(
        &list,
        json!({"tools": [tool("get.user"), tool("get_user"), tool("3d")]}),
    );
    let tools = listing.await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert_eq!(names.len(), 3);
    assert!(names.iter().all(|name| !name.contains('.')), "{names:?}");
    assert!(
        names.contains(&"_3d"),
        "Gemini names start with a letter or `_`: {names:?}"
    );
    let dotted = tools
        .iter()
        .find(|tool| tool.definition().name == "get.user")
        .unwrap();
    let plain = tools
        .iter()
        .find(|tool| tool.definition().name == "get_user")
        .unwrap();
    assert_ne!(dotted.name(), plain.name(), "neither shadows the other");
    assert_eq!(
        dotted.function_declaration().unwrap()["name"],
        dotted.name()
    );

    let call = tokio::spawn({
        let dotted = dotted.clone();
        async move { dotted.call(json!({"id": "u-1"}), None).await }
    });
    let request = connection.expect_request("tools/call").await;
    assert_eq!(request.params()["name"], "get.user");
    connection.respond(
        &request,
        json!({"content": [{"type": "text", "text": "ok"}]}),
    );
    assert!(!call.await.unwrap().unwrap().is_error);
    toolset.close().await;
}

#[tokio::test]
async fn a_warm_turn_hands_out_the_adapted_tools_it_made_before() {
    let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .fit_to(Provider::Gemini)
        .build()
        .await
        .unwrap();
    let first = toolset.mcp_tools(None).await.unwrap();
    let second = toolset.mcp_tools(None).await.unwrap();
    for (a, b) in first.iter().zip(&second) {
        assert!(Arc::ptr_eq(a, b), "{} was fitted again", a.name());
        assert!(a.adapted_schema().is_some());
    }
    toolset.close().await;
}

#[tokio::test]
async fn descriptions_are_fenced_in_the_declaration_and_the_providers_json() {
    let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .fit_to(
            ModelFit::from(Provider::Anthropic)
                .descriptions(DescriptionPolicy::default().fenced(true).max_chars(20)),
        )
        .build()
        .await
        .unwrap();
    let add_task = toolset.tool("add_task", None).await.unwrap();
    let description = &add_task.declaration().description;
    assert!(
        description.starts_with("[the MCP server's description of this tool")
            && description.contains("… [cut from ")
            && description.ends_with("[end of the server's description]"),
        "{description}"
    );
    let function = add_task.function_declaration().unwrap();
    assert_eq!(function["description"], *description);
    toolset.close().await;
}

#[tokio::test]
async fn a_namer_of_ones_own_renames_the_tools_and_leaves_their_schemas_alone() {
    let fit = ModelFit::default().namer(ToolNamer::default().prefix("tracker"));
    let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .fit_to(fit)
        .build()
        .await
        .unwrap();
    let add_task = toolset.tool("tracker__add_task", None).await.unwrap();
    assert_eq!(add_task.definition().name, "add_task");
    assert!(add_task.adapted_schema().is_none(), "no adapter was given");
    assert_eq!(
        add_task.declaration().parameters,
        serde_json::Value::Object((*add_task.definition().input_schema).clone())
    );

    let output = add_task
        .call(json!({"title": "Tag v1.2"}), None)
        .await
        .unwrap();
    assert!(!output.is_error, "{output:?}");
    toolset.close().await;
}

#[tokio::test]
async fn a_schema_adapter_replaces_the_providers_own() {
    // Gemini's names, OpenAI's strict schemas: a Gemini declaration has no `strict`.
    let fit = ModelFit::from(Provider::Gemini).schema_adapter(Provider::OpenAi.adapter());
    let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .fit_to(fit)
        .build()
        .await
        .unwrap();
    let add_task = toolset.tool("add_task", None).await.unwrap();
    let function = add_task.function_declaration().expect("a declaration");
    assert_eq!(function["function"]["strict"], true, "{function}");
    assert_eq!(
        add_task.declaration().parameters["additionalProperties"],
        false
    );
    toolset.close().await;
}
