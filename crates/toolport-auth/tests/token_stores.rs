//! The token stores through their public API: what each keeps, what the file looks like on
//! disk, and what never shows in `Debug` output or errors.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use toolport_auth::{
    FileTokenStore, MemoryTokenStore, TokenKey, TokenSet, TokenStore, TokenStoreError, TokenType,
};
use toolport_core::Secret;

const ACCESS: &str = "at-SECRET-0a1b2c";
const REFRESH: &str = "rt-SECRET-3d4e5f";

/// Tokens with every field set; the expiry in whole seconds, as the file keeps it.
fn full_tokens(access: &str) -> TokenSet {
    TokenSet::new(Secret::new(access), TokenType::DPoP)
        .with_refresh_token(Secret::new(REFRESH))
        .with_expires_at(SystemTime::UNIX_EPOCH + Duration::from_secs(1_900_000_000))
        .with_scopes(["tools:read", "offline_access"])
        .with_issuer("https://auth.example.com")
}

fn alice() -> TokenKey {
    TokenKey::new("https://mcp.example.com/mcp", "alice")
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Save, load, overwrite, remove, and remove again, on any store.
async fn round_trip(store: &dyn TokenStore) {
    let key = alice();
    assert_eq!(store.load(&key).await.unwrap(), None);

    let first = full_tokens(ACCESS);
    store.save(&key, &first).await.unwrap();
    assert_eq!(store.load(&key).await.unwrap(), Some(first));

    let second = TokenSet::new(Secret::new("at-2"), TokenType::Bearer);
    store.save(&key, &second).await.unwrap();
    assert_eq!(store.load(&key).await.unwrap(), Some(second));

    store.remove(&key).await.unwrap();
    assert_eq!(store.load(&key).await.unwrap(), None);
    store.remove(&key).await.unwrap();
}

/// Keys that differ in identity alone, or in resource alone, or that would meet if the storage
/// key were a naive join, keep their own tokens; removing one leaves the rest.
async fn keys_kept_apart(store: &dyn TokenStore) {
    let keys = [
        alice(),
        TokenKey::new("https://mcp.example.com/mcp", "bob"),
        TokenKey::new("https://other.example.com/mcp", "alice"),
        TokenKey::new("https://x/+b", "c"),
        TokenKey::new("https://x/", "b+c"),
    ];
    for (n, key) in keys.iter().enumerate() {
        store
            .save(key, &full_tokens(&format!("at-{n}")))
            .await
            .unwrap();
    }
    for (n, key) in keys.iter().enumerate() {
        let loaded = store.load(key).await.unwrap().unwrap();
        assert_eq!(loaded.access_token().expose(), format!("at-{n}"), "{key}");
    }
    store.remove(&keys[0]).await.unwrap();
    assert_eq!(store.load(&keys[0]).await.unwrap(), None);
    for key in &keys[1..] {
        assert!(store.load(key).await.unwrap().is_some(), "{key}");
    }
}

#[tokio::test]
async fn memory_round_trip() {
    round_trip(&MemoryTokenStore::new()).await;
}

#[tokio::test]
async fn memory_keeps_keys_apart() {
    keys_kept_apart(&MemoryTokenStore::new()).await;
}

#[tokio::test]
async fn memory_clones_share_their_tokens() {
    let store = MemoryTokenStore::new();
    let clone = store.clone();
    clone.save(&alice(), &full_tokens(ACCESS)).await.unwrap();
    assert!(store.load(&alice()).await.unwrap().is_some());
    store.remove(&alice()).await.unwrap();
    assert!(clone.load(&alice()).await.unwrap().is_none());
}

#[tokio::test]
async fn file_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    round_trip(&FileTokenStore::new(dir.path().join("tokens.json"))).await;
}

#[tokio::test]
async fn file_keeps_keys_apart() {
    let dir = tempfile::tempdir().unwrap();
    keys_kept_apart(&FileTokenStore::new(dir.path().join("tokens.json"))).await;
}

#[tokio::test]
async fn file_is_json_that_a_second_store_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.json");
    let tokens = full_tokens(ACCESS);
    FileTokenStore::new(&path)
        .save(&alice(), &tokens)
        .await
        .unwrap();

    let json: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(json["version"], 1);
    let entry = &json["tokens"][alice().storage_key()];
    assert_eq!(entry["access_token"], ACCESS);
    assert_eq!(entry["token_type"], "DPoP");
    assert_eq!(entry["expires_at"], 1_900_000_000u64);

    let second = FileTokenStore::new(&path);
    assert_eq!(second.load(&alice()).await.unwrap(), Some(tokens));
}

#[tokio::test]
async fn file_and_missing_directories_are_created_on_the_first_save_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/tokens.json");
    let store = FileTokenStore::new(&path);
    assert_eq!(store.load(&alice()).await.unwrap(), None);
    store.remove(&alice()).await.unwrap();
    assert!(
        !dir.path().join("a").exists(),
        "a load or remove created it"
    );

    store.save(&alice(), &full_tokens(ACCESS)).await.unwrap();
    assert!(path.is_file());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        for created in ["a", "a/b"] {
            let mode = fs::metadata(dir.path().join(created))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "{created}: {mode:o}");
        }
    }
}

#[cfg(unix)]
#[tokio::test]
async fn file_mode_is_0600_and_a_wider_file_is_read_then_narrowed() {
    use std::os::unix::fs::PermissionsExt as _;

    let mode_of = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.json");
    let store = FileTokenStore::new(&path);
    store.save(&alice(), &full_tokens(ACCESS)).await.unwrap();
    assert_eq!(mode_of(&path), 0o600);

    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    let fresh = FileTokenStore::new(&path);
    assert!(fresh.load(&alice()).await.unwrap().is_some());
    assert_eq!(mode_of(&path), 0o644, "a load changes nothing");
    fresh.save(&alice(), &full_tokens("at-2")).await.unwrap();
    assert_eq!(mode_of(&path), 0o600);
}

#[tokio::test]
async fn file_writes_leave_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = FileTokenStore::new(dir.path().join("tokens.json"));
    for n in 0..5 {
        let key = TokenKey::new("https://mcp.example.com/mcp", format!("user-{n}"));
        store.save(&key, &full_tokens(ACCESS)).await.unwrap();
    }
    store.remove(&alice()).await.unwrap();
    store
        .remove(&TokenKey::new("https://mcp.example.com/mcp", "user-0"))
        .await
        .unwrap();
    assert_eq!(names_in(dir.path()), ["tokens.json"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_saves_through_one_store_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = FileTokenStore::new(dir.path().join("tokens.json"));
    let keys: Vec<TokenKey> = (0..32)
        .map(|n| TokenKey::new("https://mcp.example.com/mcp", format!("user-{n}")))
        .collect();
    let saves: Vec<_> = keys
        .iter()
        .cloned()
        .map(|key| {
            let store = store.clone();
            tokio::spawn(async move { store.save(&key, &full_tokens(ACCESS)).await })
        })
        .collect();
    for save in saves {
        save.await.unwrap().unwrap();
    }
    let reader = FileTokenStore::new(store.path());
    for key in &keys {
        assert!(reader.load(key).await.unwrap().is_some(), "{key} was lost");
    }
    assert_eq!(names_in(dir.path()), ["tokens.json"]);
}

#[tokio::test]
async fn a_corrupt_file_is_an_error_naming_it_and_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.json");
    let text = "{\"version\": 1, \"tokens\": {\"k\": ";
    fs::write(&path, text).unwrap();
    let store = FileTokenStore::new(&path);

    let load = store.load(&alice()).await.unwrap_err();
    let save = store
        .save(&alice(), &full_tokens(ACCESS))
        .await
        .unwrap_err();
    let remove = store.remove(&alice()).await.unwrap_err();
    for error in [load, save, remove] {
        assert!(
            matches!(error, TokenStoreError::Corrupt { .. }),
            "{error:?}"
        );
        assert_eq!(error.path(), Some(path.as_path()));
        let message = error.to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(message.contains("corrupt"), "{message}");
    }
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
}

#[tokio::test]
async fn a_file_of_a_newer_version_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.json");
    let text = r#"{"version": 2, "entries": []}"#;
    fs::write(&path, text).unwrap();
    let store = FileTokenStore::new(&path);
    let error = store
        .save(&alice(), &full_tokens(ACCESS))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("format version 2"), "{error}");
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
}

#[tokio::test]
async fn a_directory_where_the_file_should_be_is_a_read_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.json");
    fs::create_dir(&path).unwrap();
    let error = FileTokenStore::new(&path).load(&alice()).await.unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("could not read the token file "),
        "{error}"
    );
    assert_eq!(error.path(), Some(path.as_path()));
}

#[tokio::test]
async fn no_secret_shows_in_debug_output_or_errors() {
    let tokens = full_tokens(ACCESS);
    let memory = MemoryTokenStore::new();
    memory.save(&alice(), &tokens).await.unwrap();

    // Secrets in the wrong places of a file: serde's own messages would quote them.
    let dir = tempfile::tempdir().unwrap();
    let misplaced = [
        format!(
            r#"{{"version": 1, "tokens": {{"k": {{"access_token": "a", "token_type": "{ACCESS}"}}}}}}"#
        ),
        format!(
            r#"{{"version": 1, "tokens": {{"k": {{"access_token": "a", "token_type": "Bearer", "expires_at": "{REFRESH}"}}}}}}"#
        ),
        format!(
            r#"{{"version": 1, "tokens": {{"k": {{"access_token": 5, "refresh_token": "{REFRESH}", "{ACCESS}": 1}}}}}}"#
        ),
        format!(r#"{{"version": 1, "tokens": {{"{ACCESS}": "{REFRESH}"}}}}"#),
        format!(r#"{{"version": "{ACCESS}"}}"#),
        format!(r#"{{"version": 1, "tokens": {{"k": {{"access_token": "{ACCESS}" "#),
    ];
    let mut shown = vec![
        format!("{tokens:?}"),
        format!("{tokens:#?}"),
        format!("{memory:?}"),
    ];
    for (n, text) in misplaced.iter().enumerate() {
        let path = dir.path().join(format!("bad-{n}.json"));
        fs::write(&path, text).unwrap();
        let store = FileTokenStore::new(&path);
        let error = store.load(&alice()).await.unwrap_err();
        assert!(
            matches!(error, TokenStoreError::Corrupt { .. }),
            "{text}: {error:?}"
        );
        shown.push(format!("{error:?}"));
        shown.push(toolport_core::error_chain(&error));
        shown.push(format!("{store:?}"));
    }
    for text in &shown {
        for secret in [ACCESS, REFRESH, "SECRET"] {
            assert!(!text.contains(secret), "`{secret}` shows in: {text}");
        }
    }
}
