//! The tests' side: an [`OAuthAuthorizer`] against the fixture, driven through
//! `toolport-http-client`'s `RequestHeaders` as a transport drives it (authorize, and on a
//! refusal renew and send again).

use toolport_auth::{HeadlessAuthorization, OAuthAuthorizer, OAuthAuthorizerBuilder};
use url::Url;

use super::Fixture;
pub use super::authorized_client::bounded;
use super::authorized_client::{AuthorizedClient, TIMEOUT};

/// An MCP client of one fixture's resource, authorized by an [`OAuthAuthorizer`].
pub type Client = AuthorizedClient<OAuthAuthorizer>;

impl AuthorizedClient<OAuthAuthorizer> {
    /// A client of `fixture`'s resource, its authorizer built from the `configure`d builder (a
    /// headless handler already set).
    pub fn new(
        fixture: &Fixture,
        configure: impl FnOnce(OAuthAuthorizerBuilder) -> OAuthAuthorizerBuilder,
    ) -> Self {
        let redirect = Url::parse("http://localhost:3000/callback").unwrap();
        let handler = HeadlessAuthorization::new(redirect).with_timeout(TIMEOUT);
        let builder = OAuthAuthorizer::builder(&fixture.server_url())
            .handler(handler)
            .timeout(TIMEOUT);
        let authorizer = configure(builder).build().unwrap();
        Self::with_authorizer(authorizer, &fixture.server_url())
    }
}
