//! [`ServerPrefixes`]: the `{server_id}__` that each server's prefixed tool names begin with,
//! and so which server a name that begins that way claims to be from.

use toolport_tools::names::{NameChangeKind, NameRule, ToolNamer};

/// The prefix of every server the manager knows, as written (`my.files__`) and as the name
/// rule makes it (`my_files__`).
#[derive(Debug)]
pub(crate) struct ServerPrefixes<'a> {
    /// Each prefix with its server's id, the longest first.
    prefixes: Vec<(String, &'a str)>,
}

impl<'a> ServerPrefixes<'a> {
    /// The prefixes of the servers `ids`, under `rule`.
    pub(crate) fn new(rule: &NameRule, ids: &[&'a str]) -> Self {
        let mut prefixes = Vec::with_capacity(ids.len() * 2);
        for &id in ids {
            prefixes.push((format!("{id}__"), id));
            if let Some(made) = made_prefix(rule, id) {
                prefixes.push((made, id));
            }
        }
        prefixes.sort_by_key(|(prefix, _)| std::cmp::Reverse(prefix.len()));
        prefixes.dedup();
        Self { prefixes }
    }

    /// The server `name` claims to be from: the one whose prefix it begins with, the longest
    /// prefix if several (`a__b__x` is server `a__b`'s when both `a` and `a__b` exist).
    pub(crate) fn claimed_by(&self, name: &str) -> Option<&'a str> {
        self.prefixes
            .iter()
            .find(|(prefix, _)| name.starts_with(prefix.as_str()))
            .map(|&(_, id)| id)
    }
}

/// The prefix the rule makes of server `id`, as a short tool name of it shows; `None` when the
/// id is so long that even that name is cut.
fn made_prefix(rule: &NameRule, id: &str) -> Option<String> {
    const PROBE: &str = "x";
    let names = ToolNamer::new(*rule)
        .unwrap_or_default()
        .prefix(id)
        .name_all([PROBE]);
    let shortened = names
        .changes()
        .iter()
        .any(|change| matches!(change.kind, NameChangeKind::Shortened { .. }));
    let name = names.model_name(PROBE)?;
    (!shortened).then(|| name.strip_suffix(PROBE).map(str::to_owned))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_claimed_by_the_server_of_its_longest_prefix() {
        let prefixes = ServerPrefixes::new(&NameRule::default(), &["a", "a__b", "github"]);
        assert_eq!(prefixes.claimed_by("github__create_issue"), Some("github"));
        assert_eq!(prefixes.claimed_by("a__x"), Some("a"));
        assert_eq!(prefixes.claimed_by("a__b__x"), Some("a__b"));
        assert_eq!(prefixes.claimed_by("x__y"), None);
        assert_eq!(prefixes.claimed_by("github_create_issue"), None);
        assert_eq!(prefixes.claimed_by("githubby__x"), None);
    }

    #[test]
    fn an_id_the_rule_changes_claims_its_names_both_ways() {
        let prefixes = ServerPrefixes::new(&NameRule::default(), &["my.files"]);
        assert_eq!(prefixes.claimed_by("my_files__read"), Some("my.files"));
        assert_eq!(prefixes.claimed_by("my.files__read"), Some("my.files"));
        let gemini = ServerPrefixes::new(&NameRule::gemini(), &["7zip"]);
        assert_eq!(gemini.claimed_by("_7zip__pack"), Some("7zip"));
    }

    #[test]
    fn an_id_too_long_for_the_rule_claims_its_names_as_written() {
        let id = "s".repeat(80);
        let prefixes = ServerPrefixes::new(&NameRule::default(), &[id.as_str()]);
        assert_eq!(prefixes.claimed_by(&format!("{id}__x")), Some(id.as_str()));
        assert_eq!(prefixes.prefixes.len(), 1);
    }
}
