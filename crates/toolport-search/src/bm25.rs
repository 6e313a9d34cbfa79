//! [`Bm25`]: Okapi BM25 over weighted bags of terms, with documents added and removed one at a
//! time.

use std::collections::HashMap;

/// How much a term's repeats count before they stop adding (Lucene's default).
const K1: f32 = 1.2;
/// How much a long document is discounted against the average (Lucene's default).
const B: f32 = 0.75;

/// A document's slot in the index.
pub(crate) type Slot = usize;

/// An inverted index scored with BM25: for each term, the documents holding it and its
/// (weighted) frequency in each. A document is a bag of terms with a weight each, so that a
/// word of a tool's name can count more than a word of its description.
#[derive(Debug, Default)]
pub(crate) struct Bm25 {
    postings: HashMap<String, Vec<(Slot, f32)>>,
    /// Each live document's length (the sum of its weights); `None` for a free slot.
    lengths: Vec<Option<f32>>,
    total_length: f32,
    live: usize,
}

impl Bm25 {
    /// Adds a document with `terms` (each with its weighted frequency) at `slot`, which must
    /// be free.
    pub(crate) fn insert(&mut self, slot: Slot, terms: &HashMap<String, f32>) {
        if self.lengths.len() <= slot {
            self.lengths.resize(slot + 1, None);
        }
        debug_assert!(self.lengths[slot].is_none(), "slot {slot} is taken");
        let length: f32 = terms.values().sum();
        for (term, frequency) in terms {
            self.postings
                .entry(term.clone())
                .or_default()
                .push((slot, *frequency));
        }
        self.lengths[slot] = Some(length);
        self.total_length += length;
        self.live += 1;
    }

    /// Removes the document at `slot`, whose terms were `terms`.
    pub(crate) fn remove(&mut self, slot: Slot, terms: &HashMap<String, f32>) {
        let Some(length) = self.lengths.get_mut(slot).and_then(Option::take) else {
            return;
        };
        for term in terms.keys() {
            if let Some(posting) = self.postings.get_mut(term) {
                posting.retain(|(at, _)| *at != slot);
                if posting.is_empty() {
                    self.postings.remove(term);
                }
            }
        }
        self.total_length -= length;
        self.live -= 1;
    }

    /// Adds each document's score for the query `terms` (each with its weight in the query)
    /// to `scores`, indexed by slot; `scores` must be as long as there are slots.
    pub(crate) fn score_into(&self, terms: &HashMap<String, f32>, scores: &mut [f32]) {
        if self.live == 0 {
            return;
        }
        let average_length = (self.total_length / self.live as f32).max(f32::EPSILON);
        let documents = self.live as f32;
        for (term, query_weight) in terms {
            let Some(posting) = self.postings.get(term) else {
                continue;
            };
            let holding = posting.len() as f32;
            let idf = (1.0 + (documents - holding + 0.5) / (holding + 0.5)).ln();
            for (slot, frequency) in posting {
                let length = self.lengths[*slot].unwrap_or(average_length);
                let saturation = frequency + K1 * (1.0 - B + B * length / average_length);
                scores[*slot] += query_weight * idf * frequency * (K1 + 1.0) / saturation;
            }
        }
    }

    /// One past the highest slot ever used.
    #[cfg(test)]
    fn slots(&self) -> usize {
        self.lengths.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bag(text: &str) -> HashMap<String, f32> {
        let mut bag = HashMap::new();
        for word in text.split_whitespace() {
            *bag.entry(word.to_owned()).or_default() += 1.0;
        }
        bag
    }

    fn scores(index: &Bm25, query: &str) -> Vec<f32> {
        let mut scores = vec![0.0; index.slots()];
        index.score_into(&bag(query), &mut scores);
        scores
    }

    /// The check against Lucene's formula,
    /// `idf = ln(1 + (N - n + 0.5) / (n + 0.5))` and
    /// `score = idf * f * (k1 + 1) / (f + k1 * (1 - b + b * dl / avgdl))` with k1 = 1.2 and
    /// b = 0.75, worked apart from this code: N = 3 and avgdl = 11/3; "cat" is in two
    /// documents (idf 0.4700), "mat" in one (idf 0.9808). The first document scores
    /// 0.4700 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 3 / (11/3))) = 0.5078; the second, seven
    /// words long, 0.3426 for "cat" and 0.7149 for "mat".
    #[test]
    fn scores_match_lucenes_formula_worked_apart() {
        let mut index = Bm25::default();
        index.insert(0, &bag("the cat sat"));
        index.insert(1, &bag("the dog sat on the cat mat"));
        index.insert(2, &bag("dog"));
        let scores = scores(&index, "cat mat");
        for (score, expected) in scores.iter().zip([0.5078, 1.0575, 0.0]) {
            assert!((score - expected).abs() < 1e-4, "{scores:?}");
        }
    }

    #[test]
    fn a_removed_document_no_longer_counts() {
        let mut index = Bm25::default();
        index.insert(0, &bag("read file"));
        index.insert(1, &bag("write file"));
        let before = scores(&index, "file");
        index.remove(1, &bag("write file"));
        let after = scores(&index, "file");
        assert_eq!(after[1], 0.0);
        assert_ne!(after[0], before[0], "N, n and avgdl changed");
        index.insert(1, &bag("move file"));
        assert_eq!(scores(&index, "file"), before);
    }
}
