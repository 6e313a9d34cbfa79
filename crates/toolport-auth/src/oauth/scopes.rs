//! Which scopes an authorization request asks for: MCP's scope selection strategy, the union
//! with what was asked before (step-up), and `offline_access`.

use std::collections::BTreeSet;

use crate::BearerChallenge;

/// A set of scope tokens, sorted.
pub(crate) type Scopes = BTreeSet<String>;

/// The scope `offline_access`, which asks for a refresh token.
const OFFLINE_ACCESS: &str = "offline_access";

/// The scopes a challenge names (none when there is no challenge or no `scope`).
pub(crate) fn challenged(challenge: Option<&BearerChallenge>) -> Scopes {
    challenge
        .map(|challenge| challenge.scopes().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The scopes to ask for, as MCP's scope selection strategy and step-up flow give them:
/// the `configured` scopes when the user set some, else the challenge's `scope`, else the
/// protected resource's `scopes_supported` (else none, and the request has no `scope`); in
/// every case with the challenge's scopes and those `asked_before` added, so a
/// re-authorization never loses what other operations need.
pub(crate) fn select(
    configured: Option<&Scopes>,
    challenge: Option<&BearerChallenge>,
    resource_scopes: Option<&[String]>,
    asked_before: &Scopes,
) -> Scopes {
    let challenged = challenged(challenge);
    let mut scopes = match configured {
        Some(configured) => configured.clone(),
        None if !challenged.is_empty() => Scopes::new(),
        None => resource_scopes
            .unwrap_or_default()
            .iter()
            .cloned()
            .collect(),
    };
    scopes.extend(challenged);
    scopes.extend(asked_before.iter().cloned());
    scopes
}

/// Adds `offline_access` when the authorization server lists it in its `scopes_supported`
/// (MCP's refresh-token guidance); never otherwise, since asking for a scope the server does
/// not know is an error.
pub(crate) fn with_offline_access(mut scopes: Scopes, server_scopes: Option<&[String]>) -> Scopes {
    if server_scopes.is_some_and(|supported| supported.iter().any(|s| s == OFFLINE_ACCESS)) {
        scopes.insert(OFFLINE_ACCESS.to_owned());
    }
    scopes
}

/// Whether an `insufficient_scope` challenge asks for a scope not `asked_before`: if not,
/// authorizing again would get the same token, and the refusal stands.
pub(crate) fn asks_more(challenge: &BearerChallenge, asked_before: &Scopes) -> bool {
    challenge
        .scopes()
        .any(|scope| !asked_before.contains(scope))
}

/// The scopes as the `scope` parameter: separated by spaces.
pub(crate) fn joined(scopes: &Scopes) -> String {
    scopes
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(scopes: &[&str]) -> Scopes {
        scopes.iter().map(|s| (*s).to_owned()).collect()
    }

    fn challenge(scope: &str) -> BearerChallenge {
        BearerChallenge::parse(&format!(r#"Bearer scope="{scope}""#)).unwrap()
    }

    fn supported(scopes: &[&str]) -> Vec<String> {
        scopes.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_challenge_comes_before_scopes_supported() {
        let resource = supported(&["a", "b"]);
        let chosen = select(None, Some(&challenge("c")), Some(&resource), &Scopes::new());
        assert_eq!(chosen, set(&["c"]));
        let chosen = select(None, None, Some(&resource), &Scopes::new());
        assert_eq!(chosen, set(&["a", "b"]));
        assert!(select(None, None, None, &Scopes::new()).is_empty());
    }

    #[test]
    fn configured_scopes_replace_the_strategy_but_keep_the_challenge() {
        let configured = set(&["x"]);
        let resource = supported(&["a"]);
        let chosen = select(Some(&configured), None, Some(&resource), &Scopes::new());
        assert_eq!(chosen, set(&["x"]));
        let chosen = select(
            Some(&configured),
            Some(&challenge("c")),
            None,
            &Scopes::new(),
        );
        assert_eq!(chosen, set(&["c", "x"]));
    }

    #[test]
    fn a_re_authorization_keeps_what_was_asked_before() {
        let before = set(&["mcp:basic"]);
        let chosen = select(None, Some(&challenge("mcp:write")), None, &before);
        assert_eq!(chosen, set(&["mcp:basic", "mcp:write"]));
    }

    #[test]
    fn offline_access_only_when_the_server_lists_it() {
        let listed = supported(&["a", "offline_access"]);
        assert_eq!(
            with_offline_access(set(&["a"]), Some(&listed)),
            set(&["a", "offline_access"])
        );
        assert_eq!(
            with_offline_access(set(&["a"]), Some(&supported(&["a"]))),
            set(&["a"])
        );
        assert_eq!(with_offline_access(set(&["a"]), None), set(&["a"]));
    }

    #[test]
    fn a_challenge_asking_nothing_new_is_not_worth_a_step_up() {
        let before = set(&["a", "b"]);
        assert!(!asks_more(&challenge("a"), &before));
        assert!(!asks_more(&challenge("a b"), &before));
        assert!(asks_more(&challenge("a c"), &before));
        let no_scope = BearerChallenge::parse(r#"Bearer error="insufficient_scope""#).unwrap();
        assert!(!asks_more(&no_scope, &before));
    }

    #[test]
    fn the_parameter_is_space_separated() {
        assert_eq!(joined(&set(&["b", "a"])), "a b");
    }
}
