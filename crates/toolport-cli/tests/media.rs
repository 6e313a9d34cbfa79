//! Images and audio in a result: `--save-media DIR` writes them to new files (never over a file
//! or through a symlink) and prints their paths; without it, `--json` says on stderr what it
//! left out.

mod common;

use std::path::PathBuf;

use common::{stdout, toolport_async};
use toolport_fixtures::{HttpFixtureServer, LabServer};

/// A fresh, empty directory under the target directory.
fn fresh_dir(name: &str) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn save_media_writes_the_decoded_image_and_prints_its_path() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    let dir = fresh_dir("media");
    let dir_arg = dir.to_str().unwrap();

    let output = toolport_async(
        &[
            "call",
            "get_image",
            "--save-media",
            dir_arg,
            "--url",
            &server.url(),
        ],
        &[],
    )
    .await;

    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let path = dir.join("get_image-1.png");
    let bytes = std::fs::read(&path).expect("the image file");
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "decoded from base64"
    );
    let text = stdout(&output);
    assert!(
        text.contains(&format!(
            "[image image/png, {} bytes] saved to {}",
            bytes.len(),
            path.display()
        )),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_says_on_stderr_which_parts_it_left_out() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();

    let output = toolport_async(
        &["call", "get_image", "--json", "--url", &server.url()],
        &[],
    )
    .await;

    assert!(output.status.success());
    let _: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("stdout is JSON alone");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("toolport: --json left out image image/png, ")
            && stderr.contains(" bytes; --save-media DIR writes it to a file"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_with_save_media_keeps_stdout_json_and_names_the_file_on_stderr() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    let dir = fresh_dir("media-json");
    let dir_arg = dir.to_str().unwrap();

    let output = toolport_async(
        &[
            "call",
            "get_image",
            "--json",
            "--save-media",
            dir_arg,
            "--url",
            &server.url(),
        ],
        &[],
    )
    .await;

    let _: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("stdout is JSON alone");
    let stderr = String::from_utf8(output.stderr).unwrap();
    let path = dir.join("get_image-1.png");
    assert!(
        stderr.contains(&format!("to {}", path.display())),
        "{stderr}"
    );
    assert!(path.is_file());
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn save_media_creates_new_files_only_and_follows_no_symlink() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    let dir = fresh_dir("media-taken");
    std::fs::create_dir_all(&dir).unwrap();
    let outside = fresh_dir("media-outside");
    std::fs::create_dir_all(&outside).unwrap();
    let target = outside.join("precious.txt");
    std::fs::write(&target, "precious").unwrap();
    // The next two names are taken: a symlink to a file outside, then a file of a run before.
    std::os::unix::fs::symlink(&target, dir.join("get_image-1.png")).unwrap();
    std::fs::write(dir.join("get_image-2.png"), "an earlier image").unwrap();

    let output = toolport_async(
        &[
            "call",
            "get_image",
            "--save-media",
            dir.to_str().unwrap(),
            "--url",
            &server.url(),
        ],
        &[],
    )
    .await;

    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    assert_eq!(
        std::fs::read_to_string(dir.join("get_image-2.png")).unwrap(),
        "an earlier image"
    );
    let path = dir.join("get_image-3.png");
    let bytes = std::fs::read(&path).expect("the image, under the next free name");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(
        stdout(&output).contains(&format!("saved to {}", path.display())),
        "{}",
        stdout(&output)
    );
}
