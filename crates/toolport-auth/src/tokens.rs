//! [`TokenSet`] and [`TokenType`]: what an authorization leaves behind for one server.

use std::collections::BTreeSet;
use std::fmt;
use std::time::{Duration, SystemTime};

use toolport_core::Secret;

use crate::RefreshBinding;

/// How the access token is presented to the server (the token response's `token_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TokenType {
    /// `Authorization: Bearer <token>` (RFC 6750).
    Bearer,
    /// `Authorization: DPoP <token>` with a proof of possession on each request (RFC 9449).
    DPoP,
}

impl TokenType {
    /// The scheme as it goes in the `Authorization` header: `Bearer` or `DPoP`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Bearer => "Bearer",
            Self::DPoP => "DPoP",
        }
    }
}

impl fmt::Display for TokenType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The tokens one authorization left for one server: the access token and how to present it,
/// the refresh token if the server gave one, when the access token expires, the scopes it was
/// granted, the authorization server that issued it, and how to refresh it
/// ([`RefreshBinding`]).
///
/// The tokens are [`Secret`]s, so `Debug` shows none of them. The type has no public
/// `Serialize`: a [`TokenStore`](crate::TokenStore) writes it in its own format, and nothing
/// else can turn it into text by accident.
///
/// # Examples
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use toolport_auth::{TokenSet, TokenType};
/// use toolport_core::Secret;
///
/// let now = SystemTime::now();
/// let tokens = TokenSet::new(Secret::new("at-123"), TokenType::Bearer)
///     .with_refresh_token(Secret::new("rt-456"))
///     .with_expires_at(now + Duration::from_secs(3600))
///     .with_scopes(["tools:read"])
///     .with_issuer("https://auth.example.com");
///
/// assert!(!tokens.needs_refresh(now, Duration::from_secs(60)));
/// assert!(tokens.needs_refresh(now + Duration::from_secs(3550), Duration::from_secs(60)));
/// assert!(!format!("{tokens:?}").contains("at-123"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenSet {
    access_token: Secret,
    token_type: TokenType,
    refresh_token: Option<Secret>,
    expires_at: Option<SystemTime>,
    scopes: BTreeSet<String>,
    issuer: Option<String>,
    refresh_binding: Option<RefreshBinding>,
}

impl TokenSet {
    /// An access token of `token_type`, with no refresh token, no known expiry, no scopes, no
    /// issuer and no refresh binding; the `with_*` methods add them.
    pub fn new(access_token: Secret, token_type: TokenType) -> Self {
        Self {
            access_token,
            token_type,
            refresh_token: None,
            expires_at: None,
            scopes: BTreeSet::new(),
            issuer: None,
            refresh_binding: None,
        }
    }

    /// Adds the refresh token.
    #[must_use]
    pub fn with_refresh_token(mut self, refresh_token: Secret) -> Self {
        self.refresh_token = Some(refresh_token);
        self
    }

    /// Sets when the access token expires. A token response gives `expires_in` seconds: pass
    /// the time the response arrived plus that.
    ///
    /// Stores keep whole seconds since the Unix epoch, rounded down, so a stored token never
    /// seems to live longer than it does.
    #[must_use]
    pub fn with_expires_at(mut self, expires_at: SystemTime) -> Self {
        self.expires_at = Some(expires_at);
        self
    }

    /// Sets the scopes the token was granted (the token response's `scope`, split at spaces).
    #[must_use]
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the issuer identifier of the authorization server that issued the tokens (its
    /// metadata's `issuer`), so tokens from a server the resource no longer names are not
    /// reused.
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// Sets how to refresh the tokens, so an authorizer that loads them from a store can
    /// refresh them without having authorized itself.
    #[must_use]
    pub fn with_refresh_binding(mut self, binding: RefreshBinding) -> Self {
        self.refresh_binding = Some(binding);
        self
    }

    /// The access token.
    pub fn access_token(&self) -> &Secret {
        &self.access_token
    }

    /// How the access token is presented.
    pub fn token_type(&self) -> TokenType {
        self.token_type
    }

    /// The refresh token, if the server gave one.
    pub fn refresh_token(&self) -> Option<&Secret> {
        self.refresh_token.as_ref()
    }

    /// When the access token expires, if the server said.
    pub fn expires_at(&self) -> Option<SystemTime> {
        self.expires_at
    }

    /// The scopes the token was granted, sorted; empty when the server did not say.
    pub fn scopes(&self) -> &BTreeSet<String> {
        &self.scopes
    }

    /// The authorization server's issuer identifier, when known.
    pub fn issuer(&self) -> Option<&str> {
        self.issuer.as_deref()
    }

    /// How to refresh the tokens, when known.
    pub fn refresh_binding(&self) -> Option<&RefreshBinding> {
        self.refresh_binding.as_ref()
    }

    /// Whether the access token has expired at `now`: its expiry is `now` or earlier. A token
    /// without a known expiry never counts as expired; the server's 401 says when it is.
    pub fn is_expired(&self, now: SystemTime) -> bool {
        self.expires_at.is_some_and(|expires_at| expires_at <= now)
    }

    /// Whether the access token expires within `margin` of `now` (a token that expires exactly
    /// `margin` from now included), or has expired already: time to refresh it before it is
    /// sent. A token without a known expiry never needs a refresh by this measure.
    pub fn needs_refresh(&self, now: SystemTime, margin: Duration) -> bool {
        self.expires_at
            .is_some_and(|expires_at| match expires_at.duration_since(now) {
                Ok(left) => left <= margin,
                Err(_) => true,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    fn expiring_at(expires_at: SystemTime) -> TokenSet {
        TokenSet::new(Secret::new("at"), TokenType::Bearer).with_expires_at(expires_at)
    }

    #[test]
    fn needs_refresh_is_inclusive_at_the_margin() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let tokens = expiring_at(now + MINUTE);
        assert!(tokens.needs_refresh(now, MINUTE), "exactly at the margin");
        assert!(
            !tokens.needs_refresh(now - Duration::from_nanos(1), MINUTE),
            "a nanosecond before the margin"
        );
        assert!(!tokens.needs_refresh(now, MINUTE - Duration::from_nanos(1)));
        assert!(!tokens.is_expired(now));
    }

    #[test]
    fn an_expired_token_needs_refresh_with_any_margin() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let tokens = expiring_at(now - Duration::from_secs(1));
        assert!(tokens.is_expired(now));
        assert!(tokens.needs_refresh(now, Duration::ZERO));
        assert!(tokens.needs_refresh(now, MINUTE));
    }

    #[test]
    fn a_token_expires_at_its_expiry_not_after() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let tokens = expiring_at(now);
        assert!(tokens.is_expired(now));
        assert!(tokens.needs_refresh(now, Duration::ZERO));
        assert!(!tokens.is_expired(now - Duration::from_nanos(1)));
        assert!(!tokens.needs_refresh(now - Duration::from_nanos(1), Duration::ZERO));
    }

    #[test]
    fn a_token_without_expiry_never_needs_refresh() {
        let tokens = TokenSet::new(Secret::new("at"), TokenType::DPoP);
        let far = SystemTime::UNIX_EPOCH + Duration::from_secs(u32::MAX.into());
        assert!(!tokens.is_expired(far));
        assert!(!tokens.needs_refresh(far, Duration::MAX));
    }

    #[test]
    fn a_huge_margin_does_not_overflow() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let tokens = expiring_at(now + Duration::from_secs(3600));
        assert!(tokens.needs_refresh(now, Duration::MAX));
    }

    #[test]
    fn token_types_print_as_their_scheme() {
        assert_eq!(TokenType::DPoP.to_string(), "DPoP");
        assert_eq!(TokenType::Bearer.as_str(), "Bearer");
    }

    #[test]
    fn scopes_are_a_sorted_set() {
        let tokens = TokenSet::new(Secret::new("at"), TokenType::Bearer)
            .with_scopes(["write", "read", "write"]);
        let scopes: Vec<&str> = tokens.scopes().iter().map(String::as_str).collect();
        assert_eq!(scopes, ["read", "write"]);
    }
}
