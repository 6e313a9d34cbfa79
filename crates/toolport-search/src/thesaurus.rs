//! [`Thesaurus`]: groups of words that mean the same to someone looking for a tool, so that a
//! need phrased in other words than the tool's still finds it.

use std::collections::HashMap;

mod tool_vocabulary;

/// Groups of words and phrases that name one idea: "folder" and "directory", "forget" and
/// "delete". A word of a query and a word of a tool that share a group match, a little less
/// than the same word would.
///
/// [`Thesaurus::tools`] is the vocabulary of tools (reading, writing, files, browsers,
/// repositories, messages, …) that tool search uses by default; add your domain's own groups
/// to it with [`group`](Self::group).
///
/// ```
/// use toolport_search::Thesaurus;
///
/// let thesaurus = Thesaurus::tools().group(["ticket", "issue", "bug report"]);
/// # drop(thesaurus);
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Thesaurus {
    /// Each group, as its entries: one word, or a phrase of several.
    groups: Vec<Vec<Vec<String>>>,
}

impl Thesaurus {
    /// A thesaurus with no groups: words match only themselves (after stemming).
    pub fn empty() -> Self {
        Self { groups: Vec::new() }
    }

    /// The vocabulary of tools that tool search uses by default.
    pub fn tools() -> Self {
        tool_vocabulary::GROUPS
            .iter()
            .fold(Self::empty(), |thesaurus, group| {
                thesaurus.group(group.iter().copied())
            })
    }

    /// The thesaurus with one more group: words or phrases (`"bug report"`) that mean the same.
    pub fn group<S: AsRef<str>>(mut self, entries: impl IntoIterator<Item = S>) -> Self {
        let group: Vec<Vec<String>> = entries
            .into_iter()
            .map(|entry| crate::analyzer::split_words(entry.as_ref()).collect())
            .filter(|words: &Vec<String>| !words.is_empty())
            .collect();
        if !group.is_empty() {
            self.groups.push(group);
        }
        self
    }

    /// The number of groups.
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Whether there are no groups.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The groups compiled for matching, each word stemmed as the analyzer stems words of a
    /// text. An entry of one common word (`is_common`: "all", "which") is left out, since the
    /// analyzer drops such words; a phrase keeps its common words ("log in" is not "log").
    pub(crate) fn compile(
        &self,
        stem: impl Fn(&str) -> String,
        is_common: impl Fn(&str) -> bool,
    ) -> Concepts {
        let mut by_first_word: HashMap<String, Vec<(Vec<String>, usize)>> = HashMap::new();
        for (concept, group) in self.groups.iter().enumerate() {
            for entry in group {
                if let [word] = entry.as_slice()
                    && is_common(word)
                {
                    continue;
                }
                let stemmed: Vec<String> = entry.iter().map(|word| stem(word)).collect();
                by_first_word
                    .entry(stemmed[0].clone())
                    .or_default()
                    .push((stemmed, concept));
            }
        }
        Concepts { by_first_word }
    }
}

/// A thesaurus ready to match: its entries by their first (stemmed) word.
#[derive(Debug, Clone, Default)]
pub(crate) struct Concepts {
    by_first_word: HashMap<String, Vec<(Vec<String>, usize)>>,
}

impl Concepts {
    /// The groups that runs of `words` (every word of a text, common ones included) belong
    /// to, and which words stand in a phrase of several that matched. A phrase wins over the
    /// words it covers: "local clone" names its own group, not those of "local" and "clone".
    pub(crate) fn find_in(&self, words: &[String]) -> Found {
        let mut found = Found {
            concepts: Vec::new(),
            in_phrase: vec![false; words.len()],
        };
        for phrases in [true, false] {
            for start in 0..words.len() {
                let Some(entries) = self.by_first_word.get(&words[start]) else {
                    continue;
                };
                if !phrases && found.in_phrase[start] {
                    continue;
                }
                let first = found.concepts.len();
                for (entry, concept) in entries {
                    let matches = (entry.len() > 1) == phrases
                        && words[start..].starts_with(entry)
                        && !found.concepts[first..].contains(concept);
                    if matches {
                        found.concepts.push(*concept);
                        if phrases {
                            found.in_phrase[start..start + entry.len()].fill(true);
                        }
                    }
                }
            }
        }
        found
    }
}

/// What [`Concepts::find_in`] found in a run of words.
#[derive(Debug, PartialEq)]
pub(crate) struct Found {
    /// The concepts, one per matching run (a group at most once per run), in order.
    pub(crate) concepts: Vec<usize>,
    /// For each word, whether it stands in a phrase of several words that matched an entry:
    /// such a word means the phrase ("pull up" a ticket), not itself.
    pub(crate) in_phrase: Vec<bool>,
}

impl Default for Thesaurus {
    /// [`Thesaurus::tools`].
    fn default() -> Self {
        Self::tools()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn a_word_or_a_phrase_names_its_group_wherever_it_stands() {
        let thesaurus = Thesaurus::empty()
            .group(["folder", "directory", "to"])
            .group(["bug report", "defect"])
            .group(["go to", "navigate"])
            .group(["bug", "insect"]);
        let thesaurus = thesaurus.compile(str::to_owned, |word| word == "to");
        assert_eq!(thesaurus.find_in(&words("list the folder")).concepts, [0]);
        assert_eq!(
            thesaurus.find_in(&words("file bug report")),
            Found {
                concepts: vec![1],
                in_phrase: vec![false, true, true]
            },
            "a phrase wins over its words"
        );
        assert_eq!(thesaurus.find_in(&words("bug")).concepts, [3]);
        assert_eq!(
            thesaurus.find_in(&words("go to page")).concepts,
            [2],
            "a phrase keeps its common words"
        );
        assert_eq!(
            thesaurus.find_in(&words("go page")).concepts,
            Vec::<usize>::new()
        );
        assert_eq!(
            thesaurus.find_in(&words("to")).concepts,
            Vec::<usize>::new(),
            "an entry of one common word is left out"
        );
        assert_eq!(
            thesaurus.find_in(&words("defect directory")).concepts,
            [1, 0],
            "one entry per matching word, in order"
        );
        assert_eq!(
            thesaurus.find_in(&words("folder directory")).concepts,
            [0, 0],
            "each word names its group"
        );
        assert_eq!(thesaurus.find_in(&words("report bug")).concepts, [3]);
    }
}
