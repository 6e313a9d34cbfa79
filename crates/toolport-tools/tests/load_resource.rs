//! The `load_resource` tool: offered beside a server's tools when the server has resources,
//! reading text and binary contents on behalf of the caller, and a refused read as an output
//! the model can read.

use serde_json::json;
use toolport_core::{ReadonlyContext, Secret};
use toolport_fixtures::{HttpFixtureServer, LabServer, LibraryServer};
use toolport_http::{HttpServer, WithHttpOptions};
use toolport_testkit::DuplexConnector;
use toolport_tools::{LoadResourceTool, McpToolset, MediaPart, Tool, ToolError};

async fn library_toolset() -> McpToolset {
    McpToolset::builder(DuplexConnector::new(LibraryServer::new))
        .load_resource_tool(LoadResourceTool::NAME)
        .build()
        .await
        .unwrap()
}

async fn load_resource(toolset: &McpToolset) -> std::sync::Arc<dyn Tool> {
    let tools = toolset.tools(None).await.unwrap();
    let found = tools
        .into_iter()
        .find(|tool| tool.name() == "load_resource");
    found.expect("a server with resources gets the tool")
}

#[tokio::test]
async fn reads_text_and_binary_contents() {
    let toolset = library_toolset().await;
    let tool = load_resource(&toolset).await;
    assert_eq!(tool.declaration().parameters["required"], json!(["uri"]));

    let text = tool.call(json!({"uri": "notes://a"}), None).await.unwrap();
    assert!(!text.is_error);
    assert_eq!(text.value["contents"][0]["text"], "Alpha", "{}", text.value);
    assert!(text.parts.is_empty());

    let logo = tool
        .call(json!({"uri": "notes://logo"}), None)
        .await
        .unwrap();
    assert_eq!(logo.value["contents"][0]["bytes"], 8, "{}", logo.value);
    assert!(
        !logo.value.to_string().contains("iVBORw0KGgo="),
        "the model is not shown base64: {}",
        logo.value
    );
    let [MediaPart::Resource { uri, blob, .. }] = &logo.parts[..] else {
        panic!("{:?}", logo.parts);
    };
    assert_eq!(
        (uri.as_str(), blob.as_deref()),
        ("notes://logo", Some("iVBORw0KGgo="))
    );
    toolset.close().await;
}

#[tokio::test]
async fn a_refused_read_is_an_error_the_model_reads_and_bad_arguments_are_an_err() {
    let toolset = library_toolset().await;
    let tool = load_resource(&toolset).await;
    let missing = tool
        .call(json!({"uri": "notes://zzz"}), None)
        .await
        .unwrap();
    assert!(missing.is_error);
    assert_eq!(
        missing.value["error"], "no note notes://zzz",
        "{}",
        missing.value
    );
    let broken = tool
        .call(json!({"uri": "notes://broken"}), None)
        .await
        .unwrap();
    assert!(broken.is_error);
    assert_eq!(
        broken.value["error"], "the disk is on fire",
        "never \"not found\""
    );

    let error = tool
        .call(json!({"path": "notes://a"}), None)
        .await
        .unwrap_err();
    assert!(
        matches!(error, ToolError::InvalidArguments { .. }),
        "{error}"
    );
    toolset.close().await;
}

#[tokio::test]
async fn a_server_without_resources_is_not_offered_the_tool_and_the_name_can_change() {
    let toolset = McpToolset::builder(DuplexConnector::new(LabServer::new))
        .load_resource_tool(LoadResourceTool::NAME)
        .build()
        .await
        .unwrap();
    let tools = toolset.tools(None).await.unwrap();
    assert!(!tools.is_empty());
    assert!(tools.iter().all(|tool| tool.name() != "load_resource"));
    toolset.close().await;

    let toolset = McpToolset::builder(DuplexConnector::new(LibraryServer::new))
        .load_resource_tool("read_library_note")
        .build()
        .await
        .unwrap();
    let tools = toolset.tools(None).await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert!(names.contains(&"read_library_note"), "{names:?}");
    assert!(
        toolset
            .mcp_tools(None)
            .await
            .unwrap()
            .iter()
            .all(|tool| tool.name() != "read_library_note"),
        "the server's own tools stay apart"
    );
    toolset.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_read_goes_out_on_behalf_of_the_caller() {
    let server = HttpFixtureServer::start(LibraryServer::new).await.unwrap();
    let connector =
        HttpServer::new(server.url()).header_provider(|context: Option<&ReadonlyContext>| {
            let user = context
                .and_then(|c| c.get("user_id"))
                .and_then(|id| id.as_str());
            Ok(user
                .map(|user| vec![("X-User-Id".to_owned(), Secret::new(user))])
                .unwrap_or_default())
        });
    let toolset = McpToolset::builder(connector)
        .load_resource_tool(LoadResourceTool::NAME)
        .build()
        .await
        .unwrap();
    let tool = load_resource(&toolset).await;
    let ada = ReadonlyContext::from_json(json!({"user_id": "ada"}));
    let note = tool
        .call(json!({"uri": "notes://a"}), Some(&ada))
        .await
        .unwrap();
    assert_eq!(note.value["contents"][0]["text"], "Alpha");
    let sent_as_ada = server
        .requests()
        .iter()
        .filter(|request| request.header("x-user-id") == Some("ada"))
        .count();
    assert_eq!(sent_as_ada, 1, "the read, and nothing before it");
    toolset.close().await;
}
