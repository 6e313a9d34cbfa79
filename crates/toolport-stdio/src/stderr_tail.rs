//! [`StderrTail`]: a ring buffer of the last lines a server wrote to stderr.

use std::collections::VecDeque;

/// The last `capacity` lines, oldest first. Evicted lines' buffers are reused, so a chatty
/// server costs no allocation per line once the buffer is full.
#[derive(Debug)]
pub(crate) struct StderrTail {
    lines: VecDeque<String>,
    capacity: usize,
}

impl StderrTail {
    /// An empty tail that keeps at most `capacity` lines.
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            lines: VecDeque::with_capacity(capacity.min(1024)),
            capacity,
        }
    }

    /// Appends `line`, evicting the oldest line when full.
    pub(crate) fn push(&mut self, line: &str) {
        if self.capacity == 0 {
            return;
        }
        let mut slot = if self.lines.len() >= self.capacity {
            self.lines.pop_front().unwrap_or_default()
        } else {
            String::new()
        };
        slot.clear();
        slot.push_str(line);
        self.lines.push_back(slot);
    }

    /// The stored lines, oldest first.
    pub(crate) fn lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_lines() {
        let mut tail = StderrTail::new(2);
        for line in ["a", "b", "c"] {
            tail.push(line);
        }
        assert_eq!(tail.lines().collect::<Vec<_>>(), ["b", "c"]);
    }
}
