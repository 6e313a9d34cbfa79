//! `toolport resources`, `read`, `prompts` and `complete` against the fixtures' library server
//! over Streamable HTTP, and against the demo, which publishes tools only.

mod common;

use common::{failure_line, stdout, toolport, toolport_async};
use serde_json::Value;
use toolport_fixtures::{HttpFixtureServer, LibraryServer};

async fn library() -> HttpFixtureServer {
    HttpFixtureServer::start(LibraryServer::new).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_and_templates_are_listed_and_read() {
    let server = library().await;
    let url = server.url();

    let listed = toolport_async(&["resources", "--url", &url], &[]).await;
    assert!(listed.status.success(), "{}", failure_line(&listed));
    assert_eq!(
        stdout(&listed),
        "notes://a  notes://a\nnotes://b  notes://b\n"
    );
    let templates =
        toolport_async(&["resources", "--templates", "--json", "--url", &url], &[]).await;
    let templates: Value = serde_json::from_slice(&templates.stdout).unwrap();
    assert_eq!(templates[0]["uriTemplate"], "notes://{name}");

    let text = toolport_async(&["read", "notes://a", "--url", &url], &[]).await;
    assert_eq!(stdout(&text), "Alpha\n");
    let blob = toolport_async(&["read", "notes://logo", "--url", &url], &[]).await;
    assert_eq!(
        stdout(&blob),
        "(binary contents: 8 bytes; --json shows the base64)\n"
    );
    let raw = toolport_async(&["read", "notes://logo", "--json", "--url", &url], &[]).await;
    let raw: Value = serde_json::from_slice(&raw.stdout).unwrap();
    assert_eq!(raw["contents"][0]["blob"], "iVBORw0KGgo=");

    let broken = toolport_async(&["read", "notes://broken", "--url", &url], &[]).await;
    assert_eq!(broken.status.code(), Some(1));
    let line = failure_line(&broken);
    assert!(line.contains("resources/read notes://broken"), "{line}");
    assert!(line.contains("the disk is on fire"), "{line}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_are_listed_fetched_and_completed() {
    let server = library().await;
    let url = server.url();

    // The library answers prompts/list with `Method not found`: nothing to list.
    let listed = toolport_async(&["prompts", "--url", &url], &[]).await;
    assert!(listed.status.success(), "{}", failure_line(&listed));
    assert_eq!(stdout(&listed), "");

    let greeting = toolport_async(
        &[
            "prompts",
            "--get",
            "greet",
            r#"{"name": "Ada"}"#,
            "--url",
            &url,
        ],
        &[],
    )
    .await;
    assert!(greeting.status.success(), "{}", failure_line(&greeting));
    assert_eq!(stdout(&greeting), "user: Say hello to Ada.\n");
    let as_pairs = toolport_async(
        &["prompts", "--get", "greet", "name=Ada", "--url", &url],
        &[],
    )
    .await;
    assert_eq!(stdout(&as_pairs), "user: Say hello to Ada.\n");
    let refused = toolport_async(&["prompts", "--get", "greet", "--url", &url], &[]).await;
    assert!(failure_line(&refused).contains("`name` is required"));

    let completed = toolport_async(
        &["complete", "--prompt", "greet", "name", "A", "--url", &url],
        &[],
    )
    .await;
    assert!(completed.status.success(), "{}", failure_line(&completed));
    assert_eq!(stdout(&completed), "Ada\nAlan\n");
    server.stop().await;
}

#[test]
fn bad_prompt_arguments_fail_before_connecting() {
    let not_strings = toolport(&["prompts", "--get", "greet", r#"{"name": 1}"#]);
    assert_eq!(not_strings.status.code(), Some(1));
    assert!(failure_line(&not_strings).contains("prompt argument `name` must be a string"));
    let no_target = toolport(&["complete", "name"]);
    assert_eq!(no_target.status.code(), Some(1));
    assert!(failure_line(&no_target).contains("--prompt NAME or --template URI"));
}

#[test]
fn the_demo_publishes_no_resources_or_prompts() {
    for command in [
        &["resources"][..],
        &["resources", "--templates"],
        &["prompts"],
    ] {
        let output = toolport(command);
        assert!(
            output.status.success(),
            "{command:?}: {}",
            failure_line(&output)
        );
        assert_eq!(stdout(&output), "", "{command:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_the_capability_is_said_to_offer_none() {
    let fixture = toolport_fixtures::fixture_binary();
    let fixture = fixture.to_str().unwrap();
    let runs: [(&[&str], &str); 3] = [
        (&["resources"], "resources"),
        (&["prompts"], "prompts"),
        (&["complete", "--prompt", "any", "argument"], "completions"),
    ];
    for (command, what) in runs {
        let args: Vec<&str> = command
            .iter()
            .copied()
            .chain(["--", fixture, "lab"])
            .collect();
        let output = toolport_async(&args, &[]).await;
        assert!(output.status.success(), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "does not offer {what} (it declares no `{what}` capability)"
            )),
            "{stderr}"
        );
    }
    let server = library().await;
    let offered = toolport_async(&["resources", "--url", &server.url()], &[]).await;
    assert!(
        offered.stderr.is_empty(),
        "the library offers resources: {offered:?}"
    );
    server.stop().await;
}
