//! `--auth`: how the command authorizes with a remote server. `oauth` runs the MCP
//! authorization flow in the user's browser and keeps the tokens in a file, per server URL;
//! `client-credentials` gets a token for the client itself, its secret read from the
//! environment.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use toolport::Secret;
use toolport::auth::{FileTokenStore, LoopbackAuthorization, OAuthAuthorizer};

use crate::args::{AuthMode, ServerArgs};

/// Where `--auth oauth` keeps tokens unless `--token-file` says otherwise.
const TOKEN_FILE_VAR: &str = "TOOLPORT_TOKEN_FILE";

/// The authorizer `--auth` asks for against `url`, or `None` for `--auth none`.
pub(crate) fn authorizer(
    server: &ServerArgs,
    url: &str,
) -> anyhow::Result<Option<OAuthAuthorizer>> {
    match server.auth {
        AuthMode::None => Ok(None),
        AuthMode::Oauth => {
            let handler = LoopbackAuthorization::bind()
                .context("--auth oauth: could not listen on 127.0.0.1 for the redirect")?;
            let store = FileTokenStore::new(token_file(server)?);
            let mut builder = OAuthAuthorizer::builder(url)
                .handler(handler)
                .store(Arc::new(store))
                .client_name("toolport");
            if let Some(client_id) = &server.client_id {
                builder = builder.pre_registered(client_id.clone(), client_secret(server)?);
            }
            Ok(Some(builder.build().context("--auth oauth")?))
        }
    }
}

/// The secret in the variable `--client-secret-env` names, if it names one.
fn client_secret(server: &ServerArgs) -> anyhow::Result<Option<Secret>> {
    let Some(variable) = &server.client_secret_env else {
        return Ok(None);
    };
    let secret = std::env::var(variable)
        .ok()
        .filter(|secret| !secret.is_empty())
        .with_context(|| format!("--client-secret-env {variable}: the variable is not set"))?;
    Ok(Some(Secret::new(secret)))
}

/// `--token-file`, else `TOOLPORT_TOKEN_FILE`, else `toolport/tokens.json` in the user's
/// configuration directory (`$XDG_CONFIG_HOME`, else `~/.config`).
fn token_file(server: &ServerArgs) -> anyhow::Result<PathBuf> {
    if let Some(path) = &server.token_file {
        return Ok(path.clone());
    }
    if let Some(path) = std::env::var_os(TOKEN_FILE_VAR).filter(|path| !path.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|path| !path.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))
        .context("--auth oauth: no --token-file, and neither XDG_CONFIG_HOME nor HOME is set")?;
    Ok(config.join("toolport").join("tokens.json"))
}
