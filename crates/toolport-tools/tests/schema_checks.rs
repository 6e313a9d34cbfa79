//! A tool's calls checked against its schemas, over the scripted transport: bad arguments never
//! reach the server and the error names each field; structured content that breaks the output
//! schema is an error that keeps the result; a `$ref` to another document is never fetched.

#![cfg(feature = "jsonschema")]

mod common;

use common::call_listed;
use serde_json::{Value, json};
use toolport_tools::{SchemaChecks, ToolError};

/// A tool with both schemas, as the server lists it.
fn book_room() -> Value {
    json!({
        "name": "book_room",
        "description": "Books a room.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "room": {"type": "string", "enum": ["red", "blue"]},
                "people": {"type": "integer", "minimum": 1},
            },
            "required": ["room", "people"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {"booking": {"type": "string"}},
            "required": ["booking"],
        },
    })
}

#[tokio::test]
async fn arguments_that_break_the_input_schema_never_reach_the_server() {
    let arguments = json!({"room": "green", "people": 0});
    let (call, mut connection, toolset) = call_listed(
        book_room(),
        |b| b.schema_checks(SchemaChecks::ALL),
        arguments,
    )
    .await;
    let error = call.await.unwrap().unwrap_err();
    let ToolError::InvalidArguments { tool, reason } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(tool, "book_room");
    assert!(
        reason.contains("/room: value must be one of 'red', 'blue'"),
        "{reason}"
    );
    assert!(
        reason.contains("/people: must be >=1, but got 0"),
        "{reason}"
    );
    assert!(error.is_permanent() && !error.is_outcome_uncertain());
    assert!(
        connection.try_recv().is_none(),
        "nothing was sent after tools/list"
    );
    toolset.close().await;
}

#[tokio::test]
async fn a_missing_required_argument_is_named() {
    let (call, _connection, toolset) = call_listed(
        book_room(),
        |b| b.schema_checks(SchemaChecks::ALL),
        json!({"room": "red"}),
    )
    .await;
    let error = call.await.unwrap().unwrap_err();
    assert!(
        error
            .to_string()
            .contains("(root): missing properties 'people'"),
        "{error}"
    );
    toolset.close().await;
}

#[tokio::test]
async fn structured_content_that_breaks_the_output_schema_is_surfaced_with_the_result() {
    let arguments = json!({"room": "red", "people": 2});
    let (call, mut connection, toolset) = call_listed(
        book_room(),
        |b| b.schema_checks(SchemaChecks::ALL),
        arguments,
    )
    .await;
    let request = connection.expect_request("tools/call").await;
    let content = json!({"booking": 17});
    connection.respond(
        &request,
        json!({"content": [{"type": "text", "text": "17"}], "structuredContent": content}),
    );
    let error = call.await.unwrap().unwrap_err();
    let ToolError::InvalidOutput { reason, result, .. } = &error else {
        panic!("{error:?}");
    };
    assert!(
        reason.contains("/booking: want string, but got number"),
        "{reason}"
    );
    assert_eq!(result.structured_content, Some(content));
    assert!(
        error.is_permanent(),
        "a call that ran is not to be repeated"
    );
    toolset.close().await;
}

#[tokio::test]
async fn a_call_that_fits_both_schemas_goes_through() {
    let arguments = json!({"room": "blue", "people": 3});
    let (call, mut connection, toolset) = call_listed(
        book_room(),
        |b| b.schema_checks(SchemaChecks::ALL),
        arguments.clone(),
    )
    .await;
    let request = connection.expect_request("tools/call").await;
    assert_eq!(request.params()["arguments"], arguments);
    connection.respond(
        &request,
        json!({"content": [], "structuredContent": {"booking": "B-1"}}),
    );
    let output = call.await.unwrap().unwrap();
    let result = output.result.expect("the server's result");
    assert_eq!(result.structured_content, Some(json!({"booking": "B-1"})));
    toolset.close().await;
}

#[tokio::test]
async fn with_the_checks_off_the_server_decides() {
    let arguments = json!({"room": "green"});
    let (call, mut connection, toolset) = call_listed(
        book_room(),
        |b| b.schema_checks(SchemaChecks::NONE),
        arguments.clone(),
    )
    .await;
    let request = connection.expect_request("tools/call").await;
    assert_eq!(request.params()["arguments"], arguments);
    connection.respond(
        &request,
        json!({"content": [], "structuredContent": {"booking": 1}}),
    );
    assert!(call.await.unwrap().is_ok());
    toolset.close().await;
}

#[tokio::test]
async fn a_schema_with_an_external_ref_is_not_fetched() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}/room.json", listener.local_addr().unwrap());
    let mut tool = book_room();
    tool["inputSchema"]["properties"]["room"] = json!({"$ref": url});
    let arguments = json!({"room": "anything", "people": 1});
    let (call, mut connection, toolset) = call_listed(
        tool,
        |b| b.schema_checks(SchemaChecks::ALL),
        arguments.clone(),
    )
    .await;
    let request = connection.expect_request("tools/call").await;
    assert_eq!(request.params()["arguments"], arguments);
    connection.respond(
        &request,
        json!({"content": [], "structuredContent": {"booking": "B-2"}}),
    );
    assert!(call.await.unwrap().is_ok());
    assert_eq!(
        listener.accept().err().map(|error| error.kind()),
        Some(std::io::ErrorKind::WouldBlock),
        "the validator fetched the $ref"
    );
    toolset.close().await;
}
