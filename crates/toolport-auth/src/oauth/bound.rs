//! [`Bound`]: the authorization server, client and `resource` the current tokens came from,
//! and its stored form, the tokens' [`RefreshBinding`].

use super::identity::ClientIdentity;
use super::token_endpoint::Endpoints;
use crate::{RefreshBinding, TokenSet, TokenType};

/// Where the current tokens came from: what a refresh needs.
#[derive(Debug, Clone)]
pub(super) struct Bound {
    /// The authorization server's issuer identifier.
    pub(super) issuer: String,
    /// Its endpoints.
    pub(super) endpoints: Endpoints,
    /// The client the tokens were issued to.
    pub(super) identity: ClientIdentity,
    /// The RFC 8707 `resource` they are for.
    pub(super) resource: String,
}

impl Bound {
    /// The binding stored in `tokens`, for tokens another authorizer could refresh: Bearer
    /// tokens with a refresh token. (A DPoP-bound refresh token needs the key of the authorizer
    /// that got it, which is never stored.)
    pub(super) fn stored(tokens: &TokenSet) -> Option<Self> {
        if !refreshable_elsewhere(tokens) {
            return None;
        }
        let binding = tokens.refresh_binding()?;
        Some(Self {
            issuer: binding.issuer().to_owned(),
            endpoints: Endpoints::for_refresh(binding.token_endpoint()),
            identity: ClientIdentity {
                client_id: binding.client_id().to_owned(),
                secret: binding.client_secret().cloned(),
                method: binding.method(),
                registered_at: None,
            },
            resource: binding.resource().to_owned(),
        })
    }

    /// `tokens` with this binding kept in them, when another authorizer could refresh them
    /// (see [`stored`](Self::stored)); else `tokens` as they are.
    pub(super) fn keep_in(&self, tokens: TokenSet) -> TokenSet {
        if !refreshable_elsewhere(&tokens) {
            return tokens;
        }
        let binding = RefreshBinding::new(
            self.issuer.clone(),
            self.endpoints.token().clone(),
            self.identity.client_id.clone(),
            self.resource.clone(),
        )
        .with_secret(self.identity.secret.clone(), self.identity.method);
        tokens.with_refresh_binding(binding)
    }
}

/// Whether an authorizer other than the one that got `tokens` could refresh them: Bearer tokens
/// with a refresh token.
fn refreshable_elsewhere(tokens: &TokenSet) -> bool {
    tokens.token_type() == TokenType::Bearer && tokens.refresh_token().is_some()
}

#[cfg(test)]
mod tests {
    use toolport_core::Secret;
    use url::Url;

    use super::*;
    use crate::oauth::identity::TokenAuthMethod;

    fn bound() -> Bound {
        let token = Url::parse("https://as.example/token").unwrap();
        Bound {
            issuer: "https://as.example".into(),
            endpoints: Endpoints::for_refresh(&token),
            identity: ClientIdentity {
                client_id: "c".into(),
                secret: Some(Secret::new("cs")),
                method: TokenAuthMethod::Post,
                registered_at: Some("https://as.example".into()),
            },
            resource: "https://r.example/mcp".into(),
        }
    }

    fn tokens(token_type: TokenType) -> TokenSet {
        TokenSet::new(Secret::new("at"), token_type).with_refresh_token(Secret::new("rt"))
    }

    #[test]
    fn bearer_tokens_keep_the_binding_and_give_it_back() {
        let kept = bound().keep_in(tokens(TokenType::Bearer));
        let binding = kept.refresh_binding().unwrap();
        assert_eq!(
            binding.token_endpoint().as_str(),
            "https://as.example/token"
        );
        assert_eq!(binding.token_endpoint_auth_method(), "client_secret_post");
        let back = Bound::stored(&kept).unwrap();
        assert_eq!(back.issuer, "https://as.example");
        assert_eq!(back.identity.client_id, "c");
        assert_eq!(back.identity.secret, Some(Secret::new("cs")));
        assert_eq!(back.identity.method, TokenAuthMethod::Post);
        assert_eq!(back.resource, "https://r.example/mcp");
    }

    #[test]
    fn dpop_tokens_and_tokens_without_a_refresh_token_keep_none() {
        let dpop = bound().keep_in(tokens(TokenType::DPoP));
        assert_eq!(dpop.refresh_binding(), None);
        let once = TokenSet::new(Secret::new("at"), TokenType::Bearer);
        assert_eq!(bound().keep_in(once).refresh_binding(), None);
    }

    #[test]
    fn a_binding_on_dpop_tokens_is_not_used() {
        let binding = bound()
            .keep_in(tokens(TokenType::Bearer))
            .refresh_binding()
            .cloned()
            .unwrap();
        let dpop = tokens(TokenType::DPoP).with_refresh_binding(binding);
        assert!(Bound::stored(&dpop).is_none());
    }
}
