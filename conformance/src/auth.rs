//! How the client authorizes in the suite's `auth/*` scenarios: Toolport's OAuth client, with
//! the headless handler (the authorization redirect's `Location` is read, not followed), as the
//! suite expects of a test client; and for the scenarios of the grants that need no user
//! (client credentials, workload identity, enterprise-managed authorization), a
//! `GrantAuthorizer` with the credentials the suite's context hands over. Those credentials go
//! only to a pinned issuer: the context's `issuer`, or else the one the scenario's server
//! names, looked up before the session starts, as a user looks it up once to pin it.

use std::sync::Arc;

use anyhow::{Context as _, Result};
use toolport::auth::{
    AssertionKey, ClientAuthentication, EndpointPolicy, Grant, GrantAuthorizer,
    HeadlessAuthorization, HttpMetadataFetcher, IdentityProvider, OAuthAuthorizer,
    discover_protected_resource,
};
use toolport::{Authorizer, Secret};
use url::Url;

use crate::context;

/// The client ID metadata document URL the suite's `auth/basic-cimd` expects as `client_id`
/// when the authorization server supports such documents; nothing fetches it.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// The redirect URI the suite's reference client registers; the headless handler never
/// visits it.
const REDIRECT_URI: &str = "http://localhost:3000/callback";

/// The signing algorithm of `auth/client-credentials-jwt` when its context names none.
const DEFAULT_SIGNING_ALGORITHM: &str = "ES256";

/// The authorizer for the scenario `name` against the server at `url`, or `None` for a
/// scenario without authorization.
pub(crate) async fn authorizer(name: &str, url: &str) -> Result<Option<Arc<dyn Authorizer>>> {
    if !name.starts_with("auth/") {
        return Ok(None);
    }
    let authorizer: Arc<dyn Authorizer> = match grant(name)? {
        Some(grant) => Arc::new(
            GrantAuthorizer::builder(url, grant)
                .issuer(pinned_issuer(url).await?)
                .build()
                .context("could not set up the grant")?,
        ),
        None => Arc::new(oauth(name, url).await?),
    };
    Ok(Some(authorizer))
}

/// The issuer a scenario's credentials are pinned to: the context's `issuer` when the suite
/// gives one (its 2026-07-28 `auth/pre-registration` does), else the first authorization server
/// the protected-resource metadata of the server at `url` lists.
async fn pinned_issuer(url: &str) -> Result<String> {
    if let Ok(issuer) = context::field("issuer") {
        return Ok(issuer);
    }
    let server = Url::parse(url).context("the server URL")?;
    let fetcher = HttpMetadataFetcher::for_scheme(server.scheme() == "https")?;
    let policy = EndpointPolicy::for_resource(&server);
    let found = discover_protected_resource(&fetcher, &policy, &server, None)
        .await
        .context("could not find the authorization server to pin")?;
    // Discovery refuses a document that lists no authorization server.
    Ok(found.metadata.authorization_servers[0].clone())
}

/// The grant of the scenarios that need no user, from the suite's context; `None` for the
/// authorization-code scenarios.
fn grant(name: &str) -> Result<Option<Grant>> {
    let grant = match name {
        "auth/client-credentials-basic" => Grant::client_credentials(secret_client()?),
        "auth/client-credentials-jwt" => {
            let algorithm = context::field("signing_algorithm")
                .unwrap_or_else(|_| DEFAULT_SIGNING_ALGORITHM.to_owned());
            let key =
                AssertionKey::from_pem(context::field("private_key_pem")?.as_bytes(), &algorithm)
                    .context("the scenario's private key")?;
            Grant::client_credentials(ClientAuthentication::private_key(
                context::field("client_id")?,
                key,
            ))
        }
        "auth/wif-jwt-bearer" => Grant::jwt_bearer(
            ClientAuthentication::public(context::field("client_id")?),
            Secret::new(context::field("valid_jwt")?),
        ),
        "auth/enterprise-managed-authorization" => {
            let provider = IdentityProvider::new(
                Url::parse(&context::field("idp_token_endpoint")?)
                    .context("the identity provider's token endpoint")?,
                ClientAuthentication::public(context::field("idp_client_id")?),
                Secret::new(context::field("idp_id_token")?),
            );
            Grant::enterprise_managed(secret_client()?, provider)
        }
        _ => return Ok(None),
    };
    Ok(Some(grant))
}

/// The context's `client_id` and `client_secret`.
fn secret_client() -> Result<ClientAuthentication> {
    Ok(ClientAuthentication::secret(
        context::field("client_id")?,
        Secret::new(context::field("client_secret")?),
    ))
}

/// The authorization-code flow, pre-registered (and pinned) for `auth/pre-registration`.
async fn oauth(name: &str, url: &str) -> Result<OAuthAuthorizer> {
    let redirect_uri = Url::parse(REDIRECT_URI).context("the redirect URI")?;
    let mut builder = OAuthAuthorizer::builder(url)
        .handler(HeadlessAuthorization::new(redirect_uri))
        .client_name("toolport-conformance-client")
        .client_metadata_url(Url::parse(CLIENT_METADATA_URL).context("the metadata URL")?);
    if name == "auth/pre-registration" {
        builder = builder
            .pre_registered(
                context::field("client_id")?,
                Some(Secret::new(context::field("client_secret")?)),
            )
            .issuer(pinned_issuer(url).await?);
    }
    builder.build().context("could not set up OAuth")
}
