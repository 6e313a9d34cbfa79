//! [`NameRule`]: what a model provider accepts as a tool's name (its characters, its length, its
//! first character), and the character that stands in for one it does not accept.

use super::hash::SUFFIX_DIGITS;

/// The longest name OpenAI, Anthropic and Gemini all accept.
const COMMON_MAX_LEN: usize = 64;

/// The shortest limit a rule may set: a hash suffix (a separator and eight hex digits) and one
/// character of the name before it.
const MIN_MAX_LEN: usize = SUFFIX_DIGITS + 2;

/// The characters a provider accepts in a tool's name.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum NameChars {
    /// `[a-zA-Z0-9_-]`: what OpenAI, Anthropic and Gemini all accept.
    AsciiWordOrDash,
    /// `[a-zA-Z0-9_]`: names that are also identifiers in most programming languages.
    AsciiWord,
    /// The characters this function accepts. The rule's replacement character and the
    /// lowercase hex digits of a hash suffix must be among them ([`NameRule::check`]).
    Custom(fn(char) -> bool),
}

impl NameChars {
    /// Whether `c` may appear in a name.
    pub fn allows(self, c: char) -> bool {
        match self {
            NameChars::AsciiWordOrDash => c.is_ascii_alphanumeric() || c == '_' || c == '-',
            NameChars::AsciiWord => c.is_ascii_alphanumeric() || c == '_',
            NameChars::Custom(allows) => allows(c),
        }
    }
}

/// What one model provider accepts as a tool's name.
///
/// [`NameRule::default`] is the rule OpenAI, Anthropic and Gemini share: `[a-zA-Z0-9_-]`, 1 to
/// 64 characters. [`NameRule::gemini`] adds Gemini's rule that a name starts with a letter or
/// `_`. Lengths count characters (Unicode scalar values), which for the presets are bytes too.
///
/// ```
/// use toolport_providers::names::{NameChars, NameRule};
///
/// let rule = NameRule::new(NameChars::AsciiWord).max_len(32);
/// assert!(rule.is_valid("search_docs"));
/// assert!(!rule.is_valid("search-docs"));
/// assert!(rule.check().is_ok());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct NameRule {
    pub(super) chars: NameChars,
    pub(super) max_len: usize,
    pub(super) replacement: char,
    pub(super) letter_or_underscore_first: bool,
}

impl Default for NameRule {
    /// `[a-zA-Z0-9_-]`, at most 64 characters, `_` for a character outside them.
    fn default() -> Self {
        Self::new(NameChars::AsciiWordOrDash)
    }
}

impl NameRule {
    /// A rule that accepts `chars`, at most 64 of them, and replaces any other with `_`.
    pub fn new(chars: NameChars) -> Self {
        Self {
            chars,
            max_len: COMMON_MAX_LEN,
            replacement: '_',
            letter_or_underscore_first: false,
        }
    }

    /// Gemini's rule: the default rule, and a name starts with an ASCII letter or `_`.
    ///
    /// Gemini's documentation differs between API versions (some also accept `.` and `:`, or up
    /// to 128 characters); this is the rule every version accepts.
    pub fn gemini() -> Self {
        Self::default().letter_or_underscore_first(true)
    }

    /// The rule with another set of characters.
    #[must_use]
    pub fn chars(mut self, chars: NameChars) -> Self {
        self.chars = chars;
        self
    }

    /// The rule with another maximum length, in characters (at least 10: see [`check`]).
    ///
    /// [`check`]: NameRule::check
    #[must_use]
    pub fn max_len(mut self, max_len: usize) -> Self {
        self.max_len = max_len;
        self
    }

    /// The rule with another character in place of each one it does not accept (`_` by
    /// default). It also separates a hash suffix, fills an empty name, and (doubled) follows a
    /// [prefix](super::ToolNamer::prefix) when `_` is not accepted.
    #[must_use]
    pub fn replacement(mut self, replacement: char) -> Self {
        self.replacement = replacement;
        self
    }

    /// The rule with (or without) the requirement that a name starts with an ASCII letter or
    /// `_`. A name that does not gets the replacement character put in front of it.
    #[must_use]
    pub fn letter_or_underscore_first(mut self, required: bool) -> Self {
        self.letter_or_underscore_first = required;
        self
    }

    /// Whether `c` may appear in a name.
    pub fn allows(&self, c: char) -> bool {
        self.chars.allows(c)
    }

    /// Whether `name` is a name the provider accepts as it is.
    pub fn is_valid(&self, name: &str) -> bool {
        let mut length = 0;
        for c in name.chars() {
            if !self.allows(c) {
                return false;
            }
            length += 1;
        }
        (1..=self.max_len).contains(&length) && self.starts_well(name)
    }

    /// Whether the rule can name every tool: the replacement character is accepted (and may
    /// start a name, if names must start with a letter or `_`), the hex digits of a hash
    /// suffix are accepted, and the maximum length leaves room for a suffix.
    pub fn check(&self) -> Result<(), InvalidNameRule> {
        if !self.allows(self.replacement) {
            return Err(InvalidNameRule::ReplacementNotAllowed(self.replacement));
        }
        if self.letter_or_underscore_first && !may_start(self.replacement) {
            return Err(InvalidNameRule::ReplacementCannotStart(self.replacement));
        }
        if let Some(digit) = ('0'..='9').chain('a'..='f').find(|&c| !self.allows(c)) {
            return Err(InvalidNameRule::HexDigitNotAllowed(digit));
        }
        if self.max_len < MIN_MAX_LEN {
            return Err(InvalidNameRule::TooShort {
                max_len: self.max_len,
                min: MIN_MAX_LEN,
            });
        }
        Ok(())
    }

    /// Whether `name` starts as the rule wants (always, unless names must start with a letter
    /// or `_`).
    pub(super) fn starts_well(&self, name: &str) -> bool {
        !self.letter_or_underscore_first || name.chars().next().is_some_and(may_start)
    }
}

fn may_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

/// Why a [`NameRule`] cannot name every tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidNameRule {
    /// The replacement character is not among the characters the rule accepts.
    #[error("the replacement character `{0}` is not a character the rule accepts")]
    ReplacementNotAllowed(char),
    /// Names must start with a letter or `_`, and the replacement character, put in front of a
    /// name that does not, is neither.
    #[error(
        "the replacement character `{0}` cannot start a name, which must start with a letter or `_`"
    )]
    ReplacementCannotStart(char),
    /// A hex digit of the hash suffix is not among the characters the rule accepts.
    #[error("the hex digit `{0}` of a hash suffix is not a character the rule accepts")]
    HexDigitNotAllowed(char),
    /// The maximum length leaves no room for a hash suffix.
    #[error(
        "a maximum length of {max_len} leaves no room for a hash suffix: it must be at least {min}"
    )]
    TooShort {
        /// The rule's maximum length.
        max_len: usize,
        /// The least it may be.
        min: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_rule_takes_ascii_words_and_dashes_up_to_64() {
        let rule = NameRule::default();
        assert!(rule.is_valid("get_user-v2"));
        assert!(rule.is_valid("3d_view"));
        assert!(rule.is_valid(&"a".repeat(64)));
        assert!(!rule.is_valid(&"a".repeat(65)));
        assert!(!rule.is_valid(""));
        assert!(!rule.is_valid("get.user"));
        assert!(!rule.is_valid("überprüfen"));
    }

    #[test]
    fn gemini_wants_a_letter_or_underscore_first() {
        let rule = NameRule::gemini();
        assert!(rule.is_valid("_3d_view"));
        assert!(!rule.is_valid("3d_view"));
        assert!(!rule.is_valid("-view"));
    }

    #[test]
    fn a_rule_that_cannot_name_every_tool_says_why() {
        let dashes = NameRule::default().replacement('-');
        assert_eq!(dashes.check(), Ok(()));
        assert_eq!(
            dashes.letter_or_underscore_first(true).check(),
            Err(InvalidNameRule::ReplacementCannotStart('-'))
        );
        assert_eq!(
            NameRule::new(NameChars::AsciiWord).replacement('-').check(),
            Err(InvalidNameRule::ReplacementNotAllowed('-'))
        );
        let uppercase = NameChars::Custom(|c| c.is_ascii_uppercase() || c == '_');
        assert_eq!(
            NameRule::new(uppercase).check(),
            Err(InvalidNameRule::HexDigitNotAllowed('0'))
        );
        assert_eq!(
            NameRule::default().max_len(9).check(),
            Err(InvalidNameRule::TooShort {
                max_len: 9,
                min: 10
            })
        );
        assert_eq!(NameRule::default().max_len(10).check(), Ok(()));
    }
}
