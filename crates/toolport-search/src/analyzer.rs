//! [`Analyzer`]: the words of a text as the index compares them: identifiers split, lowercase,
//! common words dropped, stemmed, and each word's thesaurus concepts beside it.

use std::fmt;

use rust_stemmers::{Algorithm, Stemmer};

use crate::Thesaurus;
use crate::stand_in::{Kept, stand_in};
use crate::thesaurus::Concepts;

/// Words that say nothing about which tool is meant.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "before", "but", "by", "can", "could", "do", "does", "for", "from", "given", "has",
    "have", "how", "i", "if", "in", "into", "is", "it", "its", "just", "let", "me", "my", "need",
    "needs", "of", "on", "onto", "or", "our", "please", "should", "so", "some", "than", "that",
    "the", "their", "them", "then", "there", "these", "this", "those", "to", "us", "use", "using",
    "via", "want", "was", "we", "were", "what", "when", "where", "which", "while", "who", "will",
    "with", "would", "you", "your",
    // What is left of contractions ("what's", "don't", "I'll", "you've").
    "s", "t", "ll", "re", "ve", "d", "m",
];

/// One analyzed text: its stemmed words, in order, and the thesaurus concepts they name.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Analyzed {
    /// The words, split, lowercased and stemmed, without the common ones and those that
    /// stand in a phrase of the thesaurus ("pull up"), which count as its concept alone.
    pub(crate) words: Vec<String>,
    /// The concepts of the thesaurus the words (or runs of them) belong to, one entry per
    /// occurrence.
    pub(crate) concepts: Vec<usize>,
}

/// Turns text into the words the index compares.
pub(crate) struct Analyzer {
    stemmer: Stemmer,
    concepts: Concepts,
}

impl fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Analyzer")
            .field("concepts", &self.concepts)
            .finish_non_exhaustive()
    }
}

impl Analyzer {
    /// An analyzer with the English stemmer and `thesaurus`, whose entries it stems alike.
    pub(crate) fn new(thesaurus: &Thesaurus) -> Self {
        let stemmer = Stemmer::create(Algorithm::English);
        let concepts = thesaurus.compile(|word| stemmer.stem(word).into_owned(), is_common);
        Self { stemmer, concepts }
    }

    /// The words and concepts of `query`, leaving out what it says it does not want
    /// ([`without_negated`]).
    pub(crate) fn analyze_query(&self, query: &str) -> Analyzed {
        self.analyze(&without_negated(query))
    }

    /// The words and concepts of `text`.
    pub(crate) fn analyze(&self, text: &str) -> Analyzed {
        let words: Vec<String> = split_words(text).collect();
        let stems: Vec<String> = words
            .iter()
            .map(|word| self.stemmer.stem(word).into_owned())
            .collect();
        let found = self.concepts.find_in(&stems);
        let words = words
            .iter()
            .zip(stems)
            .zip(found.in_phrase)
            .filter_map(|((word, stem), in_phrase)| {
                (!in_phrase && !is_common(word)).then_some(stem)
            })
            .collect();
        Analyzed {
            words,
            concepts: found.concepts,
        }
    }
}

/// Whether a lowercase `word` is one that says nothing about which tool is meant.
fn is_common(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

/// The lowercase words of `text`: split at anything but letters and digits, and inside
/// identifiers where case or digits change (`readMediaFile`, `getHTTPResponse`, `h1Title`).
/// A token that is a thing of a kind (a web address, a path, a git revision, ...) becomes a word
/// that says what it is ([`stand_in`]), with what of it still says something (a number's
/// digits, a picture's extension).
pub(crate) fn split_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split_whitespace().flat_map(|token| {
        let words = || {
            token
                .split(|c: char| !c.is_alphanumeric())
                .filter(|run| !run.is_empty())
                .flat_map(split_identifier)
        };
        let Some(stand_in) = stand_in(token) else {
            return words().collect::<Vec<_>>();
        };
        let kept: Vec<String> = match stand_in.kept {
            Kept::Nothing => Vec::new(),
            Kept::Words => words().collect(),
            Kept::LastWord => words().last().into_iter().collect(),
        };
        std::iter::once(stand_in.word.to_owned())
            .chain(kept)
            .collect()
    })
}

/// `query` without what it says it does not want: the words after "not", "no", "without",
/// "don't", "except", "excluding", "skipping" or "ignoring", up to the end of their clause
/// ("on disk, not the GitHub copy").
pub(crate) fn without_negated(query: &str) -> String {
    let mut kept = Vec::new();
    let mut negated = false;
    for token in query.split_whitespace() {
        let word = token
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
            .to_lowercase();
        if matches!(
            word.as_str(),
            "not"
                | "no"
                | "without"
                | "don't"
                | "dont"
                | "except"
                | "excluding"
                | "skipping"
                | "ignoring"
        ) {
            negated = true;
        } else if !negated {
            kept.push(token);
        }
        if token.ends_with([',', ';', '.', ':', '!', '?', ')']) {
            negated = false;
        }
    }
    kept.join(" ")
}

/// The parts of one run of letters and digits, lowercased, and the whole run when it has
/// several (`GitHub` is `git`, `hub` and `github`, as a server named `github` is).
fn split_identifier(run: &str) -> Vec<String> {
    let chars: Vec<char> = run.chars().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    // The `s` of an acronym's plural (`PRs`, `URLs`) is no word of its own.
    let plural_s = |index: usize| index + 2 == chars.len() && chars[index + 1] == 's';
    for index in 1..chars.len() {
        let (before, here) = (chars[index - 1], chars[index]);
        let next_is_lower = chars.get(index + 1).is_some_and(|c| c.is_lowercase());
        let boundary = (before.is_lowercase() && here.is_uppercase())
            || (before.is_uppercase() && here.is_uppercase() && next_is_lower && !plural_s(index))
            || (before.is_alphabetic() != here.is_alphabetic());
        if boundary {
            parts.push(
                chars[start..index]
                    .iter()
                    .collect::<String>()
                    .to_lowercase(),
            );
            start = index;
        }
    }
    parts.push(chars[start..].iter().collect::<String>().to_lowercase());
    if parts.len() > 1 {
        parts.push(run.to_lowercase());
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split_words(text).collect()
    }

    #[test]
    fn identifiers_split_where_case_or_digits_change_and_keep_their_whole() {
        assert_eq!(
            words("browser_take_screenshot"),
            ["browser", "take", "screenshot"]
        );
        assert_eq!(
            words("readMediaFile"),
            ["read", "media", "file", "readmediafile"]
        );
        assert_eq!(
            words("getHTTPResponse"),
            ["get", "http", "response", "gethttpresponse"]
        );
        assert_eq!(words("GitHub"), ["git", "hub", "github"]);
        assert_eq!(words("PRs URLs"), ["prs", "urls"]);
        assert_eq!(
            words("list-allowed-directories"),
            ["list", "allowed", "directories"]
        );
        assert_eq!(words("h1Title"), ["h", "1", "title", "h1title"]);
        assert_eq!(words("github__create_issue"), ["github", "create", "issue"]);
    }

    #[test]
    fn addresses_files_paths_and_numbers_are_words_of_their_own() {
        assert_eq!(
            words("read https://example.com/a?b=c now"),
            ["read", "url", "now"]
        );
        assert_eq!(
            words("see example.com or docs.example.org/guide"),
            ["see", "url", "or", "url"],
            "a host name of a web domain is an address, not a file"
        );
        assert_eq!(
            words("open src/lib.rs and receipt.JPG"),
            ["open", "file", "and", "file", "jpg"],
            "a media file's extension stays: it says what the file holds"
        );
        assert_eq!(
            words("list tmp/cache in acme/web"),
            ["list", "path", "in", "path"]
        );
        assert_eq!(
            words("issue #45, at 48.8584"),
            ["issue", "number", "45", "at", "number", "48", "8584"]
        );
        assert_eq!(
            words("all *.toml under src/**"),
            ["all", "pattern", "under", "pattern"]
        );
        assert_eq!(
            words("list docs/ and ~/Downloads/, then show HEAD~3, HEAD and 9f8e7d2"),
            [
                "list",
                "directory",
                "and",
                "directory",
                "then",
                "show",
                "revision",
                "revision",
                "and",
                "revision"
            ]
        );
        assert_eq!(
            words("post in #eng-alerts, resize to 375x812, 17 + 25"),
            [
                "post",
                "in",
                "channel",
                "eng",
                "alerts",
                "resize",
                "to",
                "dimensions",
                "number",
                "17",
                "arithmetic",
                "number",
                "25"
            ]
        );
        assert_eq!(
            words("diff v1.2.0 and feature/export"),
            ["diff", "revision", "and", "branch"],
            "a version tag names a revision, a path of a kind of branch a branch"
        );
        assert_eq!(
            words("print $PATH, set PORT=8080, show HEAD~3:src/app.py, what's 17+25"),
            [
                "print",
                "variable",
                "set",
                "variable",
                "show",
                "revision",
                "what",
                "s",
                "arithmetic",
                "17",
                "25"
            ]
        );
        assert_eq!(
            words("deadbeef 123456 head"),
            ["deadbeef", "number", "123456", "head"],
            "a hash has digits and letters both; a lowercase head is a word"
        );
        assert_eq!(
            words("e.g. 10-second document.title"),
            ["e", "g", "10", "second", "document", "title"]
        );
    }

    #[test]
    fn what_a_query_does_not_want_is_left_out() {
        assert_eq!(
            without_negated("show settings.toml on disk, not the GitHub copy"),
            "show settings.toml on disk,"
        );
        assert_eq!(
            without_negated("I don't have a link; find it online"),
            "I find it online"
        );
        assert_eq!(without_negated("fetch it without a browser"), "fetch it");
        assert_eq!(
            without_negated("the folder tree, skipping node_modules"),
            "the folder tree,"
        );
    }

    #[test]
    fn words_are_stemmed_and_common_words_dropped() {
        let analyzer = Analyzer::new(&Thesaurus::empty());
        let analyzed = analyzer.analyze("Take the screenshots of all directories");
        assert_eq!(analyzed.words, ["take", "screenshot", "directori"]);
        assert!(analyzed.concepts.is_empty());
    }

    #[test]
    fn a_phrase_of_the_thesaurus_counts_as_its_concept_alone() {
        let thesaurus = Thesaurus::empty()
            .group(["log in", "sign in"])
            .group(["log", "history"]);
        let analyzer = Analyzer::new(&thesaurus);
        let analyzed = analyzer.analyze("log in to the site");
        assert_eq!(analyzed.words, ["site"]);
        assert_eq!(analyzed.concepts, [0]);
        assert_eq!(analyzer.analyze("the log").concepts, [1]);
    }
}
