//! The provider adapters on the schemas real servers list today: server-everything and a
//! Python SDK server with nested Pydantic models.
//!
//! The golden tests in `crates/toolport-providers/tests/schema_golden.rs` run on copies of some
//! of these schemas; the first test checks that the copies are still what the pinned servers
//! list, so the goldens speak for the real thing.

use std::path::Path;

use serde_json::Value;
use toolport::McpToolset;
use toolport::schema::{Provider, SchemaCache, SchemaChangeKind};
use toolport::stdio::StdioServer;
use toolport_integration_tests::{python_orders_stdio, server_everything_stdio};

/// Each server's tools as `(name, input schema)`.
async fn listed_schemas(server: StdioServer) -> Vec<(String, Value)> {
    let toolset = McpToolset::builder(server).build().await.unwrap();
    let tools = toolset.mcp_tools(None).await.unwrap();
    toolset.close().await;
    tools
        .iter()
        .map(|tool| {
            let definition = tool.definition();
            let schema = Value::Object(definition.input_schema.as_ref().clone());
            (definition.name.to_string(), schema)
        })
        .collect()
}

fn golden_input(prefix: &str, tool: &str) -> Option<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/toolport-providers/tests/schemas")
        .join(format!("{prefix}.{tool}.json"));
    let text = std::fs::read_to_string(path).ok()?;
    Some(serde_json::from_str(&text).unwrap())
}

/// Every schema any adapter leaves for Gemini must be free of what Gemini rejects.
fn assert_adapted_everywhere(server: &str, schemas: &[(String, Value)]) {
    for provider in Provider::ALL {
        let cache = SchemaCache::new(provider.adapter());
        for (tool, schema) in schemas {
            let adapted = cache.adapt(schema).unwrap();
            assert_eq!(
                adapted.schema["type"], "object",
                "{server} {tool} for {provider}"
            );
            if provider == Provider::Gemini {
                let text = adapted.schema.to_string();
                for rejected in [
                    "\"$ref\"",
                    "\"$defs\"",
                    "\"additionalProperties\"",
                    "\"$schema\"",
                ] {
                    assert!(
                        !text.contains(rejected),
                        "{server} {tool}: {rejected} in {text}"
                    );
                }
            }
            if provider == Provider::OpenAi && !adapted.strict {
                assert!(
                    adapted
                        .changes
                        .iter()
                        .any(|change| matches!(change.kind, SchemaChangeKind::NotStrict { .. })),
                    "{server} {tool} is not strict and does not say why"
                );
            }
        }
    }
}

#[tokio::test]
async fn the_golden_inputs_are_what_the_servers_list() {
    let mut compared = 0;
    for (prefix, server) in [
        ("server_everything", server_everything_stdio()),
        ("python_orders", python_orders_stdio()),
    ] {
        for (tool, schema) in listed_schemas(server).await {
            if let Some(golden) = golden_input(prefix, &tool) {
                assert_eq!(
                    schema, golden,
                    "{prefix}.{tool}.json is not what the server lists"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(
        compared, 7,
        "every golden input was compared with its server"
    );
}

#[tokio::test]
async fn every_server_everything_schema_adapts_to_every_provider() {
    let schemas = listed_schemas(server_everything_stdio()).await;
    assert!(schemas.len() >= 10, "{schemas:?}");
    assert_adapted_everywhere("server-everything", &schemas);
}

#[tokio::test]
async fn nested_pydantic_models_adapt_to_every_provider() {
    let schemas = listed_schemas(python_orders_stdio()).await;
    assert_eq!(schemas.len(), 2);
    assert_adapted_everywhere("python orders", &schemas);
    let (_, place_order) = schemas
        .iter()
        .find(|(name, _)| name == "place_order")
        .unwrap();
    let gemini = Provider::Gemini.adapter().adapt(place_order).unwrap();
    let shipping = &gemini.schema["properties"]["customer"]["properties"]["shipping"];
    assert_eq!(
        shipping["properties"]["city"]["type"], "string",
        "{shipping}"
    );
}
