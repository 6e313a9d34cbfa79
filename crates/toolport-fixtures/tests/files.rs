//! The filesystem server over the in-process duplex connector, on a directory of its own.

mod common;

use std::path::PathBuf;

use serde_json::json;
use toolport_fixtures::FilesystemServer;
use toolport_testkit::{DuplexConnector, bounded};

use common::{call, connect, only_text};

/// A fresh directory with two tickets, removed when dropped.
struct TicketDir(PathBuf);

impl TicketDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("toolport-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("open")).unwrap();
        std::fs::write(dir.join("open/T-1.md"), "Charged twice in September.\n").unwrap();
        std::fs::write(dir.join("README.md"), "Support tickets.\n").unwrap();
        Self(dir)
    }
}

impl Drop for TicketDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[tokio::test]
async fn reads_lists_and_searches_inside_its_directory() {
    let dir = TicketDir::new("read");
    let files = FilesystemServer::new(&dir.0).unwrap();
    let client = connect(&DuplexConnector::new(move || files.clone())).await;

    let listing = call(&client, "list_directory", json!({"path": "."})).await;
    assert_eq!(only_text(&listing), "[FILE] README.md\n[DIR] open");
    let ticket = call(&client, "read_text_file", json!({"path": "open/T-1.md"})).await;
    assert_eq!(only_text(&ticket), "Charged twice in September.\n");
    let found = call(
        &client,
        "search_files",
        json!({"path": ".", "pattern": "CHARGED TWICE"}),
    )
    .await;
    assert_eq!(
        found.structured_content,
        Some(json!({"matches": ["open/T-1.md"]}))
    );
    let by_name = call(
        &client,
        "search_files",
        json!({"path": ".", "pattern": "readme"}),
    )
    .await;
    assert_eq!(
        by_name.structured_content,
        Some(json!({"matches": ["README.md"]}))
    );
    let info = call(&client, "get_file_info", json!({"path": "open"})).await;
    assert_eq!(info.structured_content.unwrap()["kind"], "directory");

    for path in ["../secret", "/etc/passwd", "open/missing.md"] {
        let refused = call(&client, "read_text_file", json!({"path": path})).await;
        assert_eq!(refused.is_error, Some(true), "{path}: {refused:?}");
    }

    let tools = bounded("tools/list", client.list_all_tools())
        .await
        .unwrap();
    let mut names: Vec<_> = tools.iter().map(|tool| tool.name.to_string()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "get_file_info",
            "list_directory",
            "read_text_file",
            "search_files",
            "write_file"
        ]
    );
    let write = tools.iter().find(|tool| tool.name == "write_file").unwrap();
    assert_eq!(
        write.annotations.as_ref().unwrap().destructive_hint,
        Some(true)
    );
}

#[tokio::test]
async fn writes_only_inside_its_directory() {
    let dir = TicketDir::new("write");
    let files = FilesystemServer::new(&dir.0).unwrap();
    let client = connect(&DuplexConnector::new(move || files.clone())).await;

    let wrote = call(
        &client,
        "write_file",
        json!({"path": "open/T-2.md", "content": "New."}),
    )
    .await;
    assert_eq!(only_text(&wrote), "Wrote 4 bytes to open/T-2.md");
    assert_eq!(
        std::fs::read_to_string(dir.0.join("open/T-2.md")).unwrap(),
        "New."
    );

    let refused = call(
        &client,
        "write_file",
        json!({"path": "../escaped.md", "content": "x"}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(!dir.0.parent().unwrap().join("escaped.md").exists());
}

#[test]
fn a_missing_directory_is_an_error() {
    assert!(FilesystemServer::new("/nonexistent/toolport-files").is_err());
}
