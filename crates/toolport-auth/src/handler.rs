//! [`AuthorizationHandler`]: the interactive step of the authorization-code flow, where the
//! user (or a test double) visits the authorization URL and the server redirects back.

use std::fmt::Debug;

use toolport_core::BoxError;
use url::Url;

/// Takes the user to the authorization server and brings back its answer.
///
/// [`OAuthAuthorizer`](crate::OAuthAuthorizer) builds the authorization URL (PKCE, `state`,
/// `resource`, scopes) and calls [`authorize`](Self::authorize) with it. An implementation
/// opens a browser and waits for the redirect on a loopback listener, prints the URL and reads
/// the redirect back, or, in tests, follows the URL itself ([`HeadlessAuthorization`]).
///
/// The returned URL is checked (issuer, then `state`) before its code is used, so a handler
/// passes it on as it arrived.
///
/// [`HeadlessAuthorization`]: crate::HeadlessAuthorization
///
/// # Examples
///
/// A handler that asks the user to paste the URL the browser ended on:
///
/// ```no_run
/// use toolport_auth::AuthorizationHandler;
/// use toolport_core::BoxError;
/// use url::Url;
///
/// #[derive(Debug)]
/// struct Paste {
///     redirect_uri: Url,
/// }
///
/// #[async_trait::async_trait]
/// impl AuthorizationHandler for Paste {
///     fn redirect_uri(&self) -> &Url {
///         &self.redirect_uri
///     }
///
///     async fn authorize(&self, authorization_url: &Url) -> Result<Url, BoxError> {
///         println!("Open {authorization_url} and paste the address you end up on:");
///         let mut line = String::new();
///         std::io::stdin().read_line(&mut line)?;
///         Ok(Url::parse(line.trim())?)
///     }
/// }
/// ```
#[async_trait::async_trait]
pub trait AuthorizationHandler: Send + Sync + Debug {
    /// The redirect URI the authorization server sends the user back to. It is registered
    /// with the server (dynamic registration, or the client's metadata document) and sent in
    /// every authorization and token request.
    fn redirect_uri(&self) -> &Url;

    /// Has the user visit `authorization_url` and returns the URL the authorization server
    /// redirected back to: the [`redirect_uri`](Self::redirect_uri) with `code`, `state` and
    /// `iss`, or with `error`.
    ///
    /// The URL carries a `state` and a PKCE challenge: show it to the user, but keep it out of
    /// logs that others read.
    async fn authorize(&self, authorization_url: &Url) -> Result<Url, BoxError>;
}
