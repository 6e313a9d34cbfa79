//! One name made to follow a rule's characters and first character, before its length is seen
//! to and before it meets the other names.

use super::change::NameChangeKind;
use super::rule::NameRule;

/// A name in the rule's characters, starting as the rule wants, not yet cut to its length.
#[derive(Debug)]
pub(super) struct Sanitized {
    /// The name.
    pub(super) name: String,
    /// Its length in characters.
    pub(super) length: usize,
    /// What was changed to get it, in order.
    pub(super) changes: Vec<NameChangeKind>,
}

/// `name` with each character `rule` does not accept replaced, filled if empty, and with a
/// character in front if the rule wants another first character.
pub(super) fn sanitize(rule: &NameRule, name: &str) -> Sanitized {
    let mut changes = Vec::new();
    let mut replaced: Vec<char> = Vec::new();
    let mut sanitized: String = name
        .chars()
        .map(|c| {
            if rule.allows(c) {
                return c;
            }
            if !replaced.contains(&c) {
                replaced.push(c);
            }
            rule.replacement
        })
        .collect();
    if !replaced.is_empty() {
        changes.push(NameChangeKind::Sanitized {
            replaced,
            with: rule.replacement,
        });
    }
    if sanitized.is_empty() {
        sanitized.push(rule.replacement);
        changes.push(NameChangeKind::Empty {
            with: rule.replacement,
        });
    }
    if !rule.starts_well(&sanitized) {
        sanitized.insert(0, rule.replacement);
        changes.push(NameChangeKind::LeadingCharacterAdded {
            character: rule.replacement,
        });
    }
    Sanitized {
        length: sanitized.chars().count(),
        name: sanitized,
        changes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_character_outside_the_rule_becomes_one_replacement() {
        let sanitized = sanitize(&NameRule::default(), "überprüfen 🔍");
        assert_eq!(sanitized.name, "_berpr_fen__");
        assert_eq!(sanitized.length, 12);
        assert_eq!(
            sanitized.changes,
            [NameChangeKind::Sanitized {
                replaced: vec!['ü', ' ', '🔍'],
                with: '_'
            }]
        );
    }

    #[test]
    fn a_valid_name_is_left_alone() {
        let sanitized = sanitize(&NameRule::gemini(), "get_user-v2");
        assert_eq!(sanitized.name, "get_user-v2");
        assert!(sanitized.changes.is_empty());
    }

    #[test]
    fn gemini_gets_an_underscore_before_a_digit_or_a_dash() {
        for (name, expected) in [("3d", "_3d"), ("-x", "_-x"), (".x", "_x")] {
            assert_eq!(sanitize(&NameRule::gemini(), name).name, expected, "{name}");
            assert_eq!(
                sanitize(&NameRule::default(), name).name,
                name.replace('.', "_")
            );
        }
    }
}
