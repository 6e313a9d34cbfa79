//! [`NameChange`]: what was done to a tool's name on its way to the model, so that a user or a
//! log can see why the model calls a tool by another name than the server's.

use std::fmt;

use serde::Serialize;

/// One change made to one tool's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NameChange {
    /// The tool's name as the server lists it.
    pub original: String,
    /// The name the model sees. For [`NameChangeKind::Withheld`], the name the tool could not
    /// keep apart from the others.
    pub name: String,
    /// What was done.
    pub kind: NameChangeKind,
}

/// The kinds of change made to a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum NameChangeKind {
    /// Characters the rule does not accept were each replaced by one character.
    Sanitized {
        /// The characters replaced, each once, in the order they first appear.
        replaced: Vec<char>,
        /// What each became.
        with: char,
    },
    /// The name was empty, and became one replacement character.
    Empty {
        /// The character it became.
        with: char,
    },
    /// The name did not start with an ASCII letter or `_`, as the rule wants, and a character
    /// was put in front of it.
    LeadingCharacterAdded {
        /// The character put in front.
        character: char,
    },
    /// The name was longer than the rule allows: it was cut, and a hash suffix of the whole
    /// name keeps it apart from names that begin the same way.
    Shortened {
        /// Its length before, in characters, after any other change.
        length: usize,
        /// The rule's maximum length.
        limit: usize,
    },
    /// Once the rule was applied, the name was the same as other tools' names. Each of them got
    /// a hash suffix of its own original name, so none shadows another.
    CollisionResolved {
        /// The original names of the tools it collided with, sorted.
        with: Vec<String>,
    },
    /// No hash suffix kept the name apart from these tools' names (which takes hash
    /// collisions made on purpose), so none of them is given to the model.
    Withheld {
        /// The original names of the tools it could not be told apart from, sorted.
        with: Vec<String>,
    },
}

impl fmt::Display for NameChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            original,
            name,
            kind,
        } = self;
        match kind {
            NameChangeKind::Withheld { .. } => write!(f, "`{original}`: {kind}"),
            _ => write!(f, "`{original}` as `{name}`: {kind}"),
        }
    }
}

impl fmt::Display for NameChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameChangeKind::Sanitized { replaced, with } => {
                let replaced: Vec<String> = replaced.iter().map(|c| format!("`{c}`")).collect();
                write!(f, "replaced {} with `{with}`", replaced.join(", "))
            }
            NameChangeKind::Empty { with } => write!(f, "an empty name as `{with}`"),
            NameChangeKind::LeadingCharacterAdded { character } => {
                write!(
                    f,
                    "put `{character}` in front, as a name must start with a letter or `_`"
                )
            }
            NameChangeKind::Shortened { length, limit } => write!(
                f,
                "shortened from {length} to at most {limit} characters, with a hash suffix"
            ),
            NameChangeKind::CollisionResolved { with } => write!(
                f,
                "collided with {} once the rule was applied, so it got a hash suffix",
                quoted(with)
            ),
            NameChangeKind::Withheld { with } => write!(
                f,
                "withheld, as no hash suffix kept it apart from {}",
                quoted(with)
            ),
        }
    }
}

fn quoted(names: &[String]) -> String {
    let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(kind: NameChangeKind) -> String {
        let change = NameChange {
            original: "get.user".to_owned(),
            name: "get_user_0a1b2c3d".to_owned(),
            kind,
        };
        change.to_string()
    }

    #[test]
    fn a_change_names_the_tool_both_ways_and_what_was_done() {
        let sanitized = change(NameChangeKind::Sanitized {
            replaced: vec!['.', 'ü'],
            with: '_',
        });
        assert_eq!(
            sanitized,
            "`get.user` as `get_user_0a1b2c3d`: replaced `.`, `ü` with `_`"
        );
        let collided = change(NameChangeKind::CollisionResolved {
            with: vec!["get_user".to_owned()],
        });
        assert_eq!(
            collided,
            "`get.user` as `get_user_0a1b2c3d`: collided with `get_user` once the rule was \
             applied, so it got a hash suffix"
        );
        let withheld = change(NameChangeKind::Withheld {
            with: vec!["get_user".to_owned()],
        });
        assert_eq!(
            withheld,
            "`get.user`: withheld, as no hash suffix kept it apart from `get_user`"
        );
    }
}
