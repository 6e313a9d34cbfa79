//! `--auth`: how the command authorizes with a remote server. `oauth` runs the MCP
//! authorization flow in the user's browser and keeps the tokens in a file, per server URL;
//! `client-credentials` gets a token for the client itself, its secret read from the
//! environment and sent only to the `--issuer` or `--token-url` given.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use toolport::auth::{
    ClientAuthentication, FileTokenStore, Grant, GrantAuthorizer, LoopbackAuthorization,
    OAuthAuthorizer,
};
use toolport::{Authorizer, NetworkOptions, Secret};

use crate::args::{AuthMode, ServerArgs};

/// Where `--auth oauth` keeps tokens unless `--token-file` says otherwise.
const TOKEN_FILE_VAR: &str = "TOOLPORT_TOKEN_FILE";

/// The authorizer `--auth` asks for against `url`, or `None` for `--auth none`; it reaches the
/// authorization server through the same proxy, roots and client certificate as the server.
pub(crate) fn authorizer(
    server: &ServerArgs,
    url: &str,
    network: &NetworkOptions,
) -> anyhow::Result<Option<Arc<dyn Authorizer>>> {
    if server.token_url.is_some() && server.auth != AuthMode::ClientCredentials {
        anyhow::bail!("--token-url is for --auth client-credentials");
    }
    if server.issuer.is_some() && server.auth == AuthMode::None {
        anyhow::bail!("--issuer is for --auth oauth or --auth client-credentials");
    }
    match server.auth {
        AuthMode::None => Ok(None),
        AuthMode::Oauth => Ok(Some(Arc::new(oauth(server, url, network)?))),
        AuthMode::ClientCredentials => {
            Ok(Some(Arc::new(client_credentials(server, url, network)?)))
        }
    }
}

/// `--auth oauth`: the flow in the browser, tokens in the token file.
fn oauth(
    server: &ServerArgs,
    url: &str,
    network: &NetworkOptions,
) -> anyhow::Result<OAuthAuthorizer> {
    let handler = LoopbackAuthorization::bind()
        .context("--auth oauth: could not listen on 127.0.0.1 for the redirect")?;
    let store = FileTokenStore::new(token_file(server)?);
    let mut builder = OAuthAuthorizer::builder(url)
        .handler(handler)
        .store(Arc::new(store))
        .client_name("toolport")
        .network(network.clone());
    if let Some(client_id) = &server.client_id {
        builder = builder.pre_registered(client_id.clone(), client_secret(server)?);
    }
    if let Some(issuer) = &server.issuer {
        builder = builder.issuer(issuer.clone());
    }
    if !server.scopes.is_empty() {
        builder = builder.scopes(&server.scopes);
    }
    builder.build().context("--auth oauth")
}

/// `--auth client-credentials`: a token for the client itself, kept in memory (getting
/// another is cheap), at `--issuer`'s token endpoint or `--token-url`.
fn client_credentials(
    server: &ServerArgs,
    url: &str,
    network: &NetworkOptions,
) -> anyhow::Result<GrantAuthorizer> {
    let client_id = server
        .client_id
        .clone()
        .context("--auth client-credentials needs --client-id")?;
    let secret =
        client_secret(server)?.context("--auth client-credentials needs --client-secret-env")?;
    let grant = Grant::client_credentials(ClientAuthentication::secret(client_id, secret));
    let mut builder = GrantAuthorizer::builder(url, grant).network(network.clone());
    if let Some(token_url) = &server.token_url {
        let token_url = token_url
            .parse()
            .with_context(|| format!("--token-url {token_url}: not a URL"))?;
        builder = builder.token_url(token_url);
    }
    if let Some(issuer) = &server.issuer {
        builder = builder.issuer(issuer.clone());
    }
    if !server.scopes.is_empty() {
        builder = builder.scopes(&server.scopes);
    }
    builder.build().context("--auth client-credentials")
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
