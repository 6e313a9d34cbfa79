//! The tests' side: an [`OAuthAuthorizer`] against a fixture, driven through
//! `toolport-http-client`'s `RequestHeaders`, as a transport drives it (authorize, and on a
//! refusal renew and send once more).

use toolport_auth::{HeadlessAuthorization, OAuthAuthorizer, OAuthAuthorizerBuilder};
use url::Url;

use super::{Fixture, REDIRECT_URI};

pub use super::authorized_client::bounded;
use super::authorized_client::{AuthorizedClient, TIMEOUT};

/// An MCP client of one fixture's resource, authorized by an [`OAuthAuthorizer`].
pub type Client = AuthorizedClient<OAuthAuthorizer>;

impl AuthorizedClient<OAuthAuthorizer> {
    /// A client of `fixture`'s resource, its authorizer built from `configure`d builder (a
    /// headless handler redirecting to [`REDIRECT_URI`] already set).
    pub fn new(
        fixture: &Fixture,
        configure: impl FnOnce(OAuthAuthorizerBuilder) -> OAuthAuthorizerBuilder,
    ) -> Self {
        let handler =
            HeadlessAuthorization::new(Url::parse(REDIRECT_URI).unwrap()).with_timeout(TIMEOUT);
        let builder = OAuthAuthorizer::builder(&fixture.server_url())
            .handler(handler)
            .timeout(TIMEOUT);
        let authorizer = configure(builder).build().unwrap();
        Self::with_authorizer(authorizer, &fixture.server_url())
    }
}
