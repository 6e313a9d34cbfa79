//! How the client authorizes in the suite's `auth/*` scenarios: Toolport's OAuth client, with
//! the headless handler (the authorization redirect's `Location` is read, not followed), as the
//! suite expects of a test client.

use anyhow::{Context as _, Result};
use toolport::Secret;
use toolport::auth::{HeadlessAuthorization, OAuthAuthorizer};
use url::Url;

use crate::context;

/// The client ID metadata document URL the suite's `auth/basic-cimd` expects as `client_id`
/// when the authorization server supports such documents; nothing fetches it.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// The redirect URI the suite's reference client registers; the headless handler never
/// visits it.
const REDIRECT_URI: &str = "http://localhost:3000/callback";

/// The authorizer for the scenario `name` against the server at `url`, or `None` for a
/// scenario without authorization.
pub(crate) fn authorizer(name: &str, url: &str) -> Result<Option<OAuthAuthorizer>> {
    if !name.starts_with("auth/") {
        return Ok(None);
    }
    let redirect_uri = Url::parse(REDIRECT_URI).context("the redirect URI")?;
    let mut builder = OAuthAuthorizer::builder(url)
        .handler(HeadlessAuthorization::new(redirect_uri))
        .client_name("toolport-conformance-client")
        .client_metadata_url(Url::parse(CLIENT_METADATA_URL).context("the metadata URL")?);
    if name == "auth/pre-registration" {
        builder = builder.pre_registered(
            context::field("client_id")?,
            Some(Secret::new(context::field("client_secret")?)),
        );
    }
    let authorizer = builder.build().context("could not set up OAuth")?;
    Ok(Some(authorizer))
}
