//! How a [`TokenSet`] is written down by the stores: a private form with the tokens exposed, so
//! [`TokenSet`] itself needs no public `Serialize`.

use std::collections::BTreeSet;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toolport_core::Secret;
use url::Url;

use crate::oauth::identity::TokenAuthMethod;
use crate::{RefreshBinding, TokenSet, TokenType};

/// A [`TokenSet`] as JSON. It has no `Debug`: it holds the tokens in the clear.
#[derive(Serialize, Deserialize)]
pub(crate) struct WireTokens {
    access_token: String,
    token_type: WireTokenType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refresh_token: Option<String>,
    /// Whole seconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expires_at: Option<EpochSeconds>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    scopes: BTreeSet<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    issuer: Option<String>,
    /// Added after the first format: documents without it still load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refresh_binding: Option<WireBinding>,
}

/// A [`RefreshBinding`], with the client secret in the clear.
#[derive(Serialize, Deserialize)]
struct WireBinding {
    issuer: String,
    token_endpoint: WireUrl,
    client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    client_secret: Option<String>,
    token_endpoint_auth_method: WireAuthMethod,
    resource: String,
}

/// A URL as its text.
struct WireUrl(Url);

impl Serialize for WireUrl {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

impl<'de> Deserialize<'de> for WireUrl {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Url::parse(&text)
            .map(Self)
            .map_err(|_| serde::de::Error::custom("token_endpoint is not a URL"))
    }
}

/// A token endpoint authentication method, by its RFC 7591 name.
struct WireAuthMethod(TokenAuthMethod);

impl Serialize for WireAuthMethod {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

impl<'de> Deserialize<'de> for WireAuthMethod {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        TokenAuthMethod::parse(&name)
            .map(Self)
            .ok_or_else(|| serde::de::Error::custom("unknown token_endpoint_auth_method"))
    }
}

impl From<&RefreshBinding> for WireBinding {
    fn from(binding: &RefreshBinding) -> Self {
        Self {
            issuer: binding.issuer().to_owned(),
            token_endpoint: WireUrl(binding.token_endpoint().clone()),
            client_id: binding.client_id().to_owned(),
            client_secret: binding.client_secret().map(|s| s.expose().to_owned()),
            token_endpoint_auth_method: WireAuthMethod(binding.method()),
            resource: binding.resource().to_owned(),
        }
    }
}

impl From<WireBinding> for RefreshBinding {
    fn from(wire: WireBinding) -> Self {
        RefreshBinding::new(
            wire.issuer,
            wire.token_endpoint.0,
            wire.client_id,
            wire.resource,
        )
        .with_secret(
            wire.client_secret.map(Secret::new),
            wire.token_endpoint_auth_method.0,
        )
    }
}

/// [`TokenType`], spelled as in the `Authorization` header.
#[derive(Serialize, Deserialize)]
enum WireTokenType {
    Bearer,
    DPoP,
}

/// A time as whole seconds since the Unix epoch, rounded down; a time before the epoch is 0.
struct EpochSeconds(SystemTime);

impl Serialize for EpochSeconds {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let seconds = self
            .0
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        serializer.serialize_u64(seconds)
    }
}

impl<'de> Deserialize<'de> for EpochSeconds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let seconds = u64::deserialize(deserializer)?;
        SystemTime::UNIX_EPOCH
            .checked_add(Duration::from_secs(seconds))
            .map(Self)
            .ok_or_else(|| serde::de::Error::custom("expires_at is out of range"))
    }
}

impl From<&TokenSet> for WireTokens {
    fn from(tokens: &TokenSet) -> Self {
        Self {
            access_token: tokens.access_token().expose().to_owned(),
            token_type: match tokens.token_type() {
                TokenType::Bearer => WireTokenType::Bearer,
                TokenType::DPoP => WireTokenType::DPoP,
            },
            refresh_token: tokens.refresh_token().map(|t| t.expose().to_owned()),
            expires_at: tokens.expires_at().map(EpochSeconds),
            scopes: tokens.scopes().clone(),
            issuer: tokens.issuer().map(str::to_owned),
            refresh_binding: tokens.refresh_binding().map(WireBinding::from),
        }
    }
}

impl From<WireTokens> for TokenSet {
    fn from(wire: WireTokens) -> Self {
        let token_type = match wire.token_type {
            WireTokenType::Bearer => TokenType::Bearer,
            WireTokenType::DPoP => TokenType::DPoP,
        };
        let mut tokens =
            TokenSet::new(Secret::new(wire.access_token), token_type).with_scopes(wire.scopes);
        if let Some(refresh_token) = wire.refresh_token {
            tokens = tokens.with_refresh_token(Secret::new(refresh_token));
        }
        if let Some(EpochSeconds(expires_at)) = wire.expires_at {
            tokens = tokens.with_expires_at(expires_at);
        }
        if let Some(issuer) = wire.issuer {
            tokens = tokens.with_issuer(issuer);
        }
        if let Some(binding) = wire.refresh_binding {
            tokens = tokens.with_refresh_binding(binding.into());
        }
        tokens
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn round_trip(tokens: &TokenSet) -> (serde_json::Value, TokenSet) {
        let value = serde_json::to_value(WireTokens::from(tokens)).unwrap();
        let back = serde_json::from_value::<WireTokens>(value.clone()).unwrap();
        (value, back.into())
    }

    #[test]
    fn every_field_is_written_and_read_back() {
        let expires_at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let tokens = TokenSet::new(Secret::new("at"), TokenType::DPoP)
            .with_refresh_token(Secret::new("rt"))
            .with_expires_at(expires_at)
            .with_scopes(["b", "a"])
            .with_issuer("https://as.example");
        let (value, back) = round_trip(&tokens);
        assert_eq!(
            value,
            json!({
                "access_token": "at",
                "token_type": "DPoP",
                "refresh_token": "rt",
                "expires_at": 1_700_000_000u64,
                "scopes": ["a", "b"],
                "issuer": "https://as.example",
            })
        );
        assert_eq!(back, tokens);
    }

    #[test]
    fn the_refresh_binding_is_written_and_read_back() {
        let token_endpoint = Url::parse("https://as.example/token").unwrap();
        let binding = RefreshBinding::new("https://as.example", token_endpoint, "c", "https://r")
            .with_client_secret(Secret::new("cs"), "client_secret_post")
            .unwrap();
        let tokens = TokenSet::new(Secret::new("at"), TokenType::Bearer)
            .with_refresh_token(Secret::new("rt"))
            .with_refresh_binding(binding);
        let (value, back) = round_trip(&tokens);
        assert_eq!(
            value["refresh_binding"],
            json!({
                "issuer": "https://as.example",
                "token_endpoint": "https://as.example/token",
                "client_id": "c",
                "client_secret": "cs",
                "token_endpoint_auth_method": "client_secret_post",
                "resource": "https://r",
            })
        );
        assert_eq!(back, tokens);
    }

    #[test]
    fn a_document_written_before_refresh_bindings_still_loads() {
        let value = json!({
            "access_token": "at",
            "token_type": "Bearer",
            "refresh_token": "rt",
            "issuer": "https://as.example",
        });
        let tokens: TokenSet = serde_json::from_value::<WireTokens>(value).unwrap().into();
        assert_eq!(tokens.refresh_token().map(Secret::expose), Some("rt"));
        assert_eq!(tokens.refresh_binding(), None);
    }

    #[test]
    fn absent_fields_are_left_out_and_read_as_absent() {
        let tokens = TokenSet::new(Secret::new("at"), TokenType::Bearer);
        let (value, back) = round_trip(&tokens);
        assert_eq!(value, json!({"access_token": "at", "token_type": "Bearer"}));
        assert_eq!(back, tokens);
    }

    #[test]
    fn the_expiry_is_rounded_down_to_whole_seconds() {
        let second = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let tokens = TokenSet::new(Secret::new("at"), TokenType::Bearer)
            .with_expires_at(second + Duration::from_millis(999));
        let (value, back) = round_trip(&tokens);
        assert_eq!(value["expires_at"], 1_700_000_000u64);
        assert_eq!(back.expires_at(), Some(second));
    }

    #[test]
    fn an_expiry_before_the_epoch_is_written_as_zero() {
        let tokens = TokenSet::new(Secret::new("at"), TokenType::Bearer)
            .with_expires_at(SystemTime::UNIX_EPOCH - Duration::from_secs(5));
        let (value, back) = round_trip(&tokens);
        assert_eq!(value["expires_at"], 0);
        assert_eq!(back.expires_at(), Some(SystemTime::UNIX_EPOCH));
    }

    #[test]
    fn an_expiry_out_of_range_is_an_error_not_a_panic() {
        let value = json!({"access_token": "at", "token_type": "Bearer", "expires_at": u64::MAX});
        let error = serde_json::from_value::<WireTokens>(value)
            .err()
            .expect("u64::MAX seconds is past what SystemTime holds");
        assert!(error.to_string().contains("out of range"), "{error}");
    }
}
