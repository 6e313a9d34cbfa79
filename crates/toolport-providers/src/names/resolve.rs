//! Names kept apart: every tool whose name, once the rule is applied, is the same as another's
//! gets a hash suffix of its own original name, until no two names are the same. A name the
//! rule took unchanged keeps it; the others make room.

use std::collections::{BTreeSet, HashMap};

use super::rule::NameRule;
use super::sanitize::Sanitized;

/// How many suffixes a tool tries before it is withheld. Two different names tie on a suffix
/// about once in four billion pairs, so only names made to collide on purpose get past the
/// second.
const MAX_LEVEL: u32 = 8;

/// The hash suffix of a full name for one attempt (`hash::suffix`, or a fake in the tests).
pub(super) type Suffix = fn(&str, u32) -> String;

/// One tool to name.
#[derive(Debug)]
pub(super) struct Entry<'a> {
    /// Its full name, prefix included, before the rule was applied: what suffixes hash.
    pub(super) full: &'a str,
    /// Its full name with the rule's characters and first character applied.
    pub(super) sanitized: &'a Sanitized,
}

/// The name one tool ends up with.
#[derive(Debug)]
pub(super) struct Resolution {
    /// Its name, or for a withheld tool the name it could not keep apart from the others.
    pub(super) name: String,
    /// Whether no suffix kept the name apart, so that the tool is not given to the model.
    pub(super) withheld: bool,
    /// Whether the name was cut to make room for a suffix.
    pub(super) shortened: bool,
    /// The indices of the entries it collided with.
    pub(super) collided_with: BTreeSet<usize>,
}

/// The names of `entries`, none the same as another.
///
/// Level 0 is the sanitized name as it is (unless it is too long); level `n` is the name cut to
/// leave room for the suffix of attempt `n - 1`. Each round, every tool that holds the same
/// name as another goes one level up, whatever the order of the entries, until none does.
pub(super) fn resolve(rule: &NameRule, entries: &[Entry<'_>], suffix: Suffix) -> Vec<Resolution> {
    let mut levels: Vec<u32> = entries
        .iter()
        .map(|entry| u32::from(entry.sanitized.length > rule.max_len))
        .collect();
    let mut collided_with = vec![BTreeSet::new(); entries.len()];
    let mut withheld = vec![false; entries.len()];
    loop {
        let candidates: Vec<(String, bool)> = entries
            .iter()
            .zip(&levels)
            .map(|(entry, &level)| candidate(rule, entry, level, suffix))
            .collect();
        let mut holders: HashMap<&str, Vec<usize>> = HashMap::new();
        for (index, (name, _)) in candidates.iter().enumerate() {
            if !withheld[index] {
                holders.entry(name).or_default().push(index);
            }
        }
        let ties: Vec<Vec<usize>> = holders
            .into_values()
            .filter(|holders| holders.len() > 1)
            .collect();
        if ties.is_empty() {
            return candidates
                .into_iter()
                .zip(withheld)
                .zip(collided_with)
                .map(
                    |(((name, shortened), withheld), collided_with)| Resolution {
                        name,
                        withheld,
                        shortened,
                        collided_with,
                    },
                )
                .collect();
        }
        for tie in ties {
            // A name the rule took as it is keeps it: the changed names make room, so a tool
            // whose name was fine is never renamed because another tool appeared.
            let keeper = tie
                .iter()
                .copied()
                .find(|&index| levels[index] == 0 && entries[index].sanitized.changes.is_empty());
            for &index in &tie {
                if Some(index) == keeper {
                    continue;
                }
                let others = tie.iter().copied().filter(|&other| other != index);
                collided_with[index].extend(others);
                if levels[index] == MAX_LEVEL {
                    withheld[index] = true;
                } else {
                    levels[index] += 1;
                }
            }
        }
    }
}

/// The name of `entry` at `level`, and whether it was cut.
fn candidate(rule: &NameRule, entry: &Entry<'_>, level: u32, suffix: Suffix) -> (String, bool) {
    let sanitized = entry.sanitized;
    if level == 0 {
        return (sanitized.name.clone(), false);
    }
    let mut tail = String::from(rule.replacement);
    tail.push_str(&suffix(entry.full, level - 1));
    let room = rule.max_len.saturating_sub(tail.chars().count());
    let name = sanitized
        .name
        .chars()
        .take(room)
        .chain(tail.chars())
        .collect();
    (name, sanitized.length > room)
}

#[cfg(test)]
mod tests {
    use super::super::sanitize::sanitize;
    use super::*;

    fn resolve_with(names: &[&str], suffix: Suffix) -> Vec<Resolution> {
        let rule = NameRule::default();
        let sanitized: Vec<Sanitized> = names.iter().map(|name| sanitize(&rule, name)).collect();
        let entries: Vec<Entry<'_>> = names
            .iter()
            .zip(&sanitized)
            .map(|(full, sanitized)| Entry { full, sanitized })
            .collect();
        resolve(&rule, &entries, suffix)
    }

    #[test]
    fn names_that_no_suffix_keeps_apart_are_withheld_and_the_others_kept() {
        let resolved = resolve_with(&["get.user", "get user", "list"], |_, _| "0".repeat(8));
        let named: Vec<(&str, bool)> = resolved
            .iter()
            .map(|resolution| (resolution.name.as_str(), resolution.withheld))
            .collect();
        assert_eq!(
            named,
            [
                ("get_user_00000000", true),
                ("get_user_00000000", true),
                ("list", false)
            ]
        );
        assert_eq!(resolved[0].collided_with, BTreeSet::from([1]));
        assert!(resolved[2].collided_with.is_empty());
    }

    #[test]
    fn a_name_the_rule_took_unchanged_keeps_it_in_a_collision() {
        let resolved = resolve_with(&["get.user", "get_user"], |_, _| "0".repeat(8));
        assert_eq!(resolved[0].name, "get_user_00000000");
        assert_eq!(resolved[1].name, "get_user");
        assert!(resolved.iter().all(|resolution| !resolution.withheld));
        assert_eq!(resolved[0].collided_with, BTreeSet::from([1]));
        assert!(resolved[1].collided_with.is_empty());
    }

    #[test]
    fn a_tie_on_one_attempt_is_broken_by_the_next() {
        // Both names tie on the first attempt's suffix only.
        let resolved = resolve_with(&["a.b", "a b"], |full, attempt| {
            if attempt == 0 {
                "11111111".to_owned()
            } else {
                format!("{:08}", full.len() + usize::from(full.contains(' ')))
            }
        });
        assert_eq!(resolved[0].name, "a_b_00000003");
        assert_eq!(resolved[1].name, "a_b_00000004");
        assert!(resolved.iter().all(|resolution| !resolution.withheld));
    }
}
