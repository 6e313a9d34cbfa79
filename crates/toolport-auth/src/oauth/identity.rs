//! The client's identity at an authorization server (pre-registered, a Client ID Metadata
//! Document URL, or dynamically registered) and how it authenticates at the token endpoint.

use toolport_core::Secret;
use url::Url;

/// How the client authenticates at the token endpoint (RFC 7591 §2 names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenAuthMethod {
    /// `client_secret_basic`: HTTP Basic with the client ID and secret.
    Basic,
    /// `client_secret_post`: the client ID and secret in the form body.
    Post,
    /// `none`: a public client; the client ID in the form body.
    None,
}

impl TokenAuthMethod {
    /// The method named `name`, if it is one of these.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        match name {
            "client_secret_basic" => Some(Self::Basic),
            "client_secret_post" => Some(Self::Post),
            "none" => Some(Self::None),
            _ => None,
        }
    }

    /// The method's name.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Basic => "client_secret_basic",
            Self::Post => "client_secret_post",
            Self::None => "none",
        }
    }

    /// The method for a client with or without a secret, from the server's
    /// `token_endpoint_auth_methods_supported` (RFC 8414 §2: `client_secret_basic` when the
    /// list is left out): Basic, then Post, when there is a secret; `none` otherwise.
    pub(crate) fn choose(has_secret: bool, supported: Option<&[String]>) -> Self {
        if !has_secret {
            return Self::None;
        }
        if supports(supported, Self::Basic) {
            Self::Basic
        } else if supports(supported, Self::Post) {
            Self::Post
        } else {
            Self::None
        }
    }

    /// The method to ask for when registering: `none` (a public client, as a native MCP
    /// client is) unless the server's list leaves it out; then Basic, then Post.
    pub(crate) fn to_register(supported: Option<&[String]>) -> Self {
        match supported {
            Some(_) if supports(supported, Self::None) => Self::None,
            Some(_) if supports(supported, Self::Basic) => Self::Basic,
            Some(_) if supports(supported, Self::Post) => Self::Post,
            _ => Self::None,
        }
    }
}

/// Whether the server's list (or its default, `client_secret_basic` alone) has `method`.
fn supports(supported: Option<&[String]>, method: TokenAuthMethod) -> bool {
    match supported {
        Some(list) => list.iter().any(|name| name == method.as_str()),
        None => method == TokenAuthMethod::Basic,
    }
}

/// A client ID, its secret if it has one, and how it authenticates at the token endpoint.
/// `Debug` shows no secret.
#[derive(Debug, Clone)]
pub(crate) struct ClientIdentity {
    /// The `client_id`.
    pub(crate) client_id: String,
    /// The client secret, if any.
    pub(crate) secret: Option<Secret>,
    /// How it authenticates at the token endpoint.
    pub(crate) method: TokenAuthMethod,
    /// The issuer that registered it, for a dynamic registration; `None` for identities that
    /// are not bound to one server by registration (pre-registered, metadata documents).
    pub(crate) registered_at: Option<String>,
}

impl ClientIdentity {
    /// A Client ID Metadata Document URL as the client ID: a public client.
    pub(crate) fn metadata_document(url: &Url) -> Self {
        Self {
            client_id: url.as_str().to_owned(),
            secret: None,
            method: TokenAuthMethod::None,
            registered_at: None,
        }
    }
}

/// What the user configured about the client.
#[derive(Debug, Clone)]
pub(crate) struct ClientSettings {
    /// `client_name` in a registration.
    pub(crate) name: String,
    /// A Client ID Metadata Document URL, used when the server supports them.
    pub(crate) metadata_url: Option<Url>,
    /// A pre-registered client ID and secret.
    pub(crate) pre_registered: Option<(String, Option<Secret>)>,
}

impl ClientSettings {
    /// Whether `identity` is the pre-registered client with its secret: a credential that
    /// goes only to a pinned authorization server.
    pub(crate) fn is_pre_registered_secret(&self, identity: &ClientIdentity) -> bool {
        identity.secret.is_some()
            && self
                .pre_registered
                .as_ref()
                .is_some_and(|(client_id, secret)| {
                    secret.is_some() && *client_id == identity.client_id
                })
    }

    /// The pre-registered identity, authenticating as the server's metadata allows.
    pub(crate) fn pre_registered(&self, supported: Option<&[String]>) -> Option<ClientIdentity> {
        let (client_id, secret) = self.pre_registered.as_ref()?;
        Some(ClientIdentity {
            client_id: client_id.clone(),
            secret: secret.clone(),
            method: TokenAuthMethod::choose(secret.is_some(), supported),
            registered_at: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn a_secret_prefers_basic_then_post() {
        use TokenAuthMethod::*;
        let both = list(&["client_secret_post", "client_secret_basic"]);
        assert_eq!(TokenAuthMethod::choose(true, Some(&both)), Basic);
        let post = list(&["client_secret_post"]);
        assert_eq!(TokenAuthMethod::choose(true, Some(&post)), Post);
        assert_eq!(TokenAuthMethod::choose(true, Some(&list(&["none"]))), None);
        assert_eq!(TokenAuthMethod::choose(true, Option::None), Basic);
        assert_eq!(TokenAuthMethod::choose(false, Some(&both)), None);
    }

    #[test]
    fn registration_asks_for_a_public_client_when_allowed() {
        use TokenAuthMethod::*;
        assert_eq!(TokenAuthMethod::to_register(Option::None), None);
        let all = list(&["client_secret_basic", "none"]);
        assert_eq!(TokenAuthMethod::to_register(Some(&all)), None);
        let basic = list(&["client_secret_basic"]);
        assert_eq!(TokenAuthMethod::to_register(Some(&basic)), Basic);
        let post = list(&["client_secret_post"]);
        assert_eq!(TokenAuthMethod::to_register(Some(&post)), Post);
    }

    #[test]
    fn names_round_trip() {
        for method in [
            TokenAuthMethod::Basic,
            TokenAuthMethod::Post,
            TokenAuthMethod::None,
        ] {
            assert_eq!(TokenAuthMethod::parse(method.as_str()), Some(method));
        }
        assert_eq!(TokenAuthMethod::parse("private_key_jwt"), None);
    }
}
