//! Listing and calling over stdio against `@modelcontextprotocol/server-everything`.

use serde_json::json;
use toolport::{Mapping, McpToolset, MediaPart};
use toolport_integration_tests::{call, server_everything_stdio};

async fn toolset(mapping: Mapping) -> McpToolset {
    McpToolset::builder(server_everything_stdio())
        .mapping(mapping)
        .build()
        .await
        .unwrap()
}

#[tokio::test]
async fn lists_tools_with_their_schemas_unchanged() {
    let toolset = toolset(Mapping::Rich).await;
    let raw = toolset.session().list_tools().await.unwrap();
    let tools = toolset.tools(None).await.unwrap();

    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    for expected in [
        "echo",
        "get-sum",
        "get-tiny-image",
        "get-structured-content",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let structured = raw
        .iter()
        .find(|tool| tool.name == "get-structured-content")
        .unwrap();
    let declaration = tools
        .iter()
        .find(|tool| tool.name() == "get-structured-content")
        .unwrap()
        .declaration();
    assert_eq!(
        declaration.response,
        structured
            .output_schema
            .as_ref()
            .map(|schema| serde_json::Value::Object((**schema).clone()))
    );
    assert!(
        declaration.response.is_some(),
        "server-everything declares an output schema"
    );
    toolset.close().await;
}

#[tokio::test]
async fn calls_echo_and_sum() {
    let toolset = toolset(Mapping::Rich).await;

    let echo = call(&toolset, "echo", json!({"message": "hello"})).await;
    let sum = call(&toolset, "get-sum", json!({"a": 2, "b": 3})).await;

    assert_eq!(echo.value, json!("Echo: hello"));
    assert!(sum.value.to_string().contains('5'), "{}", sum.value);
    toolset.close().await;
}

#[tokio::test]
async fn maps_the_tiny_image_in_every_preset() {
    let rich = toolset(Mapping::Rich).await;
    let output = call(&rich, "get-tiny-image", json!({})).await;
    assert!(
        matches!(&output.parts[..], [MediaPart::Image { mime_type, data }] if mime_type == "image/png" && !data.is_empty())
    );
    assert!(
        output.value.to_string().contains("image"),
        "{}",
        output.value
    );
    rich.close().await;

    let adk = toolset(Mapping::AdkJava).await;
    let output = call(&adk, "get-tiny-image", json!({})).await;
    let texts = output.value["text_output"].as_array().unwrap();
    assert!(texts.iter().all(|entry| entry["text"].is_string()));
    assert!(output.parts.is_empty(), "adk-java shows text only");
    adk.close().await;

    let raw = toolset(Mapping::Raw).await;
    let output = call(&raw, "get-tiny-image", json!({})).await;
    let content = output.value["content"].as_array().unwrap();
    assert!(
        content
            .iter()
            .any(|block| block["type"] == "image" && block["mimeType"] == "image/png")
    );
    raw.close().await;
}

#[tokio::test]
async fn maps_structured_content_in_every_preset() {
    let arguments = json!({"location": "Chicago"});

    let rich = toolset(Mapping::Rich).await;
    let output = call(&rich, "get-structured-content", arguments.clone()).await;
    assert!(output.value["temperature"].is_number(), "{}", output.value);
    rich.close().await;

    let adk = toolset(Mapping::AdkJava).await;
    let output = call(&adk, "get-structured-content", arguments.clone()).await;
    // adk-java ignores structuredContent and parses the JSON text block into an object.
    assert!(
        output.value["text_output"][0]["temperature"].is_number(),
        "{}",
        output.value
    );
    adk.close().await;

    let raw = toolset(Mapping::Raw).await;
    let output = call(&raw, "get-structured-content", arguments).await;
    assert!(
        output.value["structuredContent"]["temperature"].is_number(),
        "{}",
        output.value
    );
    assert!(output.value["content"].is_array());
    raw.close().await;
}

#[tokio::test]
async fn rich_gives_the_model_every_resource_link() {
    let toolset = toolset(Mapping::Rich).await;
    let output = call(&toolset, "get-resource-links", json!({"count": 4})).await;

    let raw = toolset
        .tool("get-resource-links", None)
        .await
        .unwrap()
        .call_raw(json!({"count": 4}), None)
        .await
        .unwrap();
    let uris: Vec<&str> = raw
        .content
        .iter()
        .filter_map(|block| block.as_resource_link())
        .map(|link| link.uri.as_str())
        .collect();
    assert_eq!(uris.len(), 4, "{raw:?}");

    let links = output.value["resources"].as_array().unwrap();
    let read: Vec<&str> = links
        .iter()
        .map(|link| link["uri"].as_str().unwrap())
        .collect();
    assert_eq!(read, uris);
    assert!(
        links
            .iter()
            .all(|link| link["type"] == "resource_link" && link["name"].is_string()),
        "{}",
        output.value
    );
    assert!(links.iter().all(|link| link["description"].is_string()));
    assert!(
        output.value["text"]
            .as_str()
            .unwrap()
            .contains("4 resource links")
    );
    assert_eq!(output.parts.len(), 4);
    toolset.close().await;
}

#[tokio::test]
async fn rich_gives_the_model_an_embedded_text_resource() {
    let toolset = toolset(Mapping::Rich).await;
    let output = call(
        &toolset,
        "get-resource-reference",
        json!({"resourceType": "Text", "resourceId": 2}),
    )
    .await;

    let resources = output.value["resources"].as_array().unwrap();
    assert_eq!(resources.len(), 1, "{}", output.value);
    let text = resources[0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Resource 2: This is a plaintext resource"),
        "{text}"
    );
    assert!(resources[0]["uri"].as_str().unwrap().ends_with("/text/2"));
    assert_eq!(resources[0]["mimeType"], "text/plain");
    assert!(
        matches!(&output.parts[..], [MediaPart::Resource { text: Some(part), .. }] if part == text)
    );
    toolset.close().await;
}
