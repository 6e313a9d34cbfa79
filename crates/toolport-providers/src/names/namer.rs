//! [`ToolNamer`]: a rule and an optional prefix, which name a whole list of tools at once.

use std::collections::BTreeSet;

use super::change::{NameChange, NameChangeKind};
use super::hash;
use super::resolve::{Entry, resolve};
use super::rule::{InvalidNameRule, NameRule};
use super::sanitize::{Sanitized, sanitize};
use super::tool_names::ToolNames;

/// Names a server's tools for one model provider: each name fits the provider's [`NameRule`],
/// carries an optional prefix, and is kept apart from the others.
///
/// For each tool, in order:
/// 1. With a prefix, the name is `{prefix}__{name}`.
/// 2. Each character the rule does not accept becomes the replacement character (`_`); an empty
///    name becomes one; a name that must start with a letter or `_` and does not gets one in
///    front.
/// 3. A name longer than the rule allows is cut, and `_` and eight hex digits of the FNV-1a hash
///    of the full name of step 1 (before step 2) are put at its end.
/// 4. Tools whose names are now the same *collide*. A tool whose name the rule took unchanged
///    keeps it; each of the others is cut if need be and gets the hash suffix of its own full
///    name, so that none shadows another, and step 4 is repeated until no two names are the
///    same. A tie on a suffix (names that collide on purpose) is
///    broken by a hash of the full name with the attempt's number; after eight attempts the
///    tools still tied are withheld, and reported.
///
/// A name the rule accepts and that collides with none passes through unchanged. Every change
/// is in [`ToolNames::changes`].
///
/// # Stability
///
/// A tool's model-facing name depends on the rule, the prefix, the tool's own name, and the
/// names of the tools it collides with in step 4 (directly, or because the suffix it got is
/// another tool's name), and on nothing else: not on the order of the list, nor on the other
/// tools, nor on the process (the hash is not randomly keyed). The same server tool gets the
/// same name across restarts; adding or removing a tool that collides with none leaves every
/// other name as it was, and a tool whose name the rule takes unchanged keeps it whatever else
/// the server lists.
///
/// # Examples
///
/// ```
/// use toolport_providers::names::{NameRule, ToolNamer};
///
/// let namer = ToolNamer::new(NameRule::gemini())?.prefix("files");
/// let names = namer.name_all(["read", "get.user", "get_user"]);
/// assert_eq!(names.model_name("read"), Some("files__read"));
/// // `get.user` and `get_user` would both be `files__get_user`: the valid one keeps it.
/// let dotted = names.model_name("get.user").unwrap();
/// assert!(dotted.starts_with("files__get_user_"));
/// assert_eq!(names.model_name("get_user"), Some("files__get_user"));
/// assert_eq!(names.lookup(dotted), Some("get.user"));
/// # Ok::<(), toolport_providers::names::InvalidNameRule>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ToolNamer {
    rule: NameRule,
    prefix: Option<String>,
}

impl ToolNamer {
    /// A namer for `rule`, without a prefix, or why the rule cannot name every tool
    /// ([`NameRule::check`]). [`ToolNamer::default`] has the default rule.
    pub fn new(rule: NameRule) -> Result<Self, InvalidNameRule> {
        rule.check()?;
        Ok(Self { rule, prefix: None })
    }

    /// The namer with every name prefixed: `{prefix}__{name}`. The prefix follows the rule
    /// too. An empty prefix is no prefix.
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        let prefix = prefix.into();
        self.prefix = (!prefix.is_empty()).then_some(prefix);
        self
    }

    /// The rule names follow.
    pub fn rule(&self) -> &NameRule {
        &self.rule
    }

    /// The model-facing names of the tools named `originals` (the names the server lists). A
    /// name listed twice is one tool.
    pub fn name_all<I>(&self, originals: I) -> ToolNames
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let originals: BTreeSet<String> = originals
            .into_iter()
            .map(|original| original.as_ref().to_owned())
            .collect();
        let originals: Vec<String> = originals.into_iter().collect();
        let fulls: Vec<String> = originals.iter().map(|name| self.full_name(name)).collect();
        let sanitized: Vec<Sanitized> = fulls
            .iter()
            .map(|full| sanitize(&self.rule, full))
            .collect();
        let entries: Vec<Entry<'_>> = fulls
            .iter()
            .zip(&sanitized)
            .map(|(full, sanitized)| Entry { full, sanitized })
            .collect();
        let resolutions = resolve(&self.rule, &entries, hash::suffix);

        let mut names = ToolNames::default();
        for (index, resolution) in resolutions.into_iter().enumerate() {
            let original = &originals[index];
            let collided_with = || -> Vec<String> {
                let others = resolution.collided_with.iter();
                others.map(|&other| originals[other].clone()).collect()
            };
            let mut kinds = sanitized[index].changes.clone();
            if resolution.shortened {
                kinds.push(NameChangeKind::Shortened {
                    length: sanitized[index].length,
                    limit: self.rule.max_len,
                });
            }
            if resolution.withheld {
                kinds.push(NameChangeKind::Withheld {
                    with: collided_with(),
                });
            } else {
                if !resolution.collided_with.is_empty() {
                    kinds.push(NameChangeKind::CollisionResolved {
                        with: collided_with(),
                    });
                }
                names
                    .by_name
                    .insert(resolution.name.clone(), original.clone());
                names
                    .by_original
                    .insert(original.clone(), resolution.name.clone());
            }
            names
                .changes
                .extend(kinds.into_iter().map(|kind| NameChange {
                    original: original.clone(),
                    name: resolution.name.clone(),
                    kind,
                }));
        }
        names
    }

    /// `original` with the prefix, before the rule is applied.
    fn full_name(&self, original: &str) -> String {
        match &self.prefix {
            Some(prefix) => format!("{prefix}__{original}"),
            None => original.to_owned(),
        }
    }
}
