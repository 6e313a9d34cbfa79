//! [`FoundTools`]: the tools each conversation's searches have found, which it is offered from
//! then on.

use std::collections::HashMap;
use std::sync::Mutex;

/// The most tools one conversation keeps found; beyond it, the one found longest ago leaves
/// (a search finds it again).
pub(crate) const FOUND_PER_CONVERSATION: usize = 32;

/// The most conversations remembered; beyond it, the one idle longest is forgotten.
pub(crate) const CONVERSATIONS: usize = 10_000;

/// The names each conversation has found, oldest first.
#[derive(Debug, Default)]
pub(crate) struct FoundTools {
    conversations: Mutex<Conversations>,
}

#[derive(Debug, Default)]
struct Conversations {
    by_key: HashMap<String, Conversation>,
    /// Counts every use, to tell which conversation was idle longest.
    clock: u64,
}

#[derive(Debug, Default)]
struct Conversation {
    names: Vec<String>,
    last_used: u64,
}

impl FoundTools {
    /// Adds `names` to what conversation `key` has found.
    pub(crate) fn add(&self, key: &str, names: impl IntoIterator<Item = String>) {
        let mut conversations = self.lock();
        conversations.clock += 1;
        let now = conversations.clock;
        if !conversations.by_key.contains_key(key) && conversations.by_key.len() >= CONVERSATIONS {
            conversations.forget_idlest();
        }
        let conversation = conversations.by_key.entry(key.to_owned()).or_default();
        conversation.last_used = now;
        for name in names {
            conversation.names.retain(|found| *found != name);
            conversation.names.push(name);
        }
        let excess = conversation
            .names
            .len()
            .saturating_sub(FOUND_PER_CONVERSATION);
        conversation.names.drain(..excess);
    }

    /// The names conversation `key` has found, oldest first.
    pub(crate) fn of(&self, key: &str) -> Vec<String> {
        let mut conversations = self.lock();
        conversations.clock += 1;
        let now = conversations.clock;
        match conversations.by_key.get_mut(key) {
            Some(conversation) => {
                conversation.last_used = now;
                conversation.names.clone()
            }
            None => Vec::new(),
        }
    }

    /// Forgets what conversation `key` has found.
    pub(crate) fn forget(&self, key: &str) {
        self.lock().by_key.remove(key);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Conversations> {
        self.conversations
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Conversations {
    fn forget_idlest(&mut self) {
        let idlest = self
            .by_key
            .iter()
            .min_by_key(|(_, conversation)| conversation.last_used)
            .map(|(key, _)| key.clone());
        if let Some(key) = idlest {
            self.by_key.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_keeps_its_latest_finds_and_others_see_none_of_them() {
        let found = FoundTools::default();
        found.add("a", ["read_file".to_owned(), "write_file".to_owned()]);
        found.add("a", ["read_file".to_owned()]);
        assert_eq!(found.of("a"), ["write_file", "read_file"]);
        assert!(found.of("b").is_empty());

        found.add(
            "a",
            (0..FOUND_PER_CONVERSATION).map(|n| format!("tool_{n}")),
        );
        let names = found.of("a");
        assert_eq!(names.len(), FOUND_PER_CONVERSATION);
        assert_eq!(names[0], "tool_0", "the two found first left");

        found.forget("a");
        assert!(found.of("a").is_empty());
    }

    #[test]
    fn the_conversation_idle_longest_is_forgotten_first() {
        let found = FoundTools::default();
        for n in 0..CONVERSATIONS {
            found.add(&n.to_string(), ["t".to_owned()]);
        }
        found.of("0");
        found.add("new", ["t".to_owned()]);
        assert!(!found.of("0").is_empty(), "used lately");
        assert!(found.of("1").is_empty(), "idle longest");
    }
}
