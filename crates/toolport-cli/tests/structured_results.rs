//! What `call` prints of structured content, against a server on the official Python SDK: a
//! string it wraps as `{"result": …}` prints as that text, once although a text block mirrors
//! it, and an image it copies into the structured content is described and saved as a media
//! part, never dumped, while `--json` prints the value whole and claims nothing left out. The
//! same holds of the images in `--mapping raw`'s value, which is the whole result.

mod common;

use std::path::PathBuf;

use common::{stdout, toolport};

/// The base64 of the server's one-pixel PNG.
const PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// `toolport call TOOL <args> -- <the Python results server>`.
fn call(tool: &str, args: &[&str]) -> std::process::Output {
    let server: Vec<String> = toolport_integration_tests::python_results_server_command()
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let mut line = vec!["call", tool];
    line.extend(args);
    line.push("--");
    line.extend(server.iter().map(String::as_str));
    let output = toolport(&line);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn a_string_wrapped_as_result_prints_as_its_text_once() {
    let output = call("greet", &["name=Ada"]);
    assert_eq!(stdout(&output), "Hello, Ada\n");

    let output = call("greet", &["name=Ada", "--json"]);
    assert_eq!(stdout(&output), "{\"result\":\"Hello, Ada\"}\n");
}

#[test]
fn an_image_in_structured_content_is_described_not_dumped() {
    let output = call("snapshot", &[]);
    let printed = stdout(&output);
    assert!(!printed.contains(PIXEL_PNG), "{printed}");
    assert!(
        printed.contains("\"caption\": \"one blue pixel\""),
        "{printed}"
    );
    assert!(
        printed.contains("\"data\": \"[image image/png, 70 bytes]\""),
        "{printed}"
    );
    assert!(
        printed.ends_with("}\n[image image/png, 70 bytes]\n"),
        "the image is reported once, as a part: {printed}"
    );
}

#[test]
fn save_media_writes_an_image_of_the_structured_content() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("structured-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);

    let output = call("snapshot", &["--save-media", dir.to_str().unwrap()]);

    let path = dir.join("snapshot-1.png");
    let bytes = std::fs::read(&path).expect("the image file");
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "decoded from base64"
    );
    assert!(
        stdout(&output).ends_with(&format!(
            "[image image/png, 70 bytes] saved to {}\n",
            path.display()
        )),
        "{}",
        stdout(&output)
    );
}

#[test]
fn json_prints_the_value_whole_and_claims_nothing_left_out_that_it_printed() {
    let output = call("snapshot", &["--json"]);
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("stdout is JSON alone");
    assert_eq!(value["image"]["data"], PIXEL_PNG);

    // The raw mapping's value holds the image block, which is also the result's media part.
    let output = call("pixel", &["--mapping", "raw", "--json"]);
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("stdout is JSON alone");
    assert_eq!(value["content"][0]["data"], PIXEL_PNG);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("left out"), "{stderr}");

    // Without the copy in the value, the image is left out, and --json says so.
    let output = call("pixel", &["--json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("toolport: --json left out image image/png, 70 bytes"),
        "{stderr}"
    );
}

#[test]
fn the_raw_mapping_describes_its_images_once() {
    let output = call("pixel", &["--mapping", "raw"]);
    let printed = stdout(&output);
    assert!(!printed.contains(PIXEL_PNG), "{printed}");
    assert!(
        printed.contains("\"data\": \"[image image/png, 70 bytes]\""),
        "{printed}"
    );
    assert_eq!(
        printed.matches("\n[image image/png, 70 bytes]\n").count(),
        1,
        "{printed}"
    );
}
