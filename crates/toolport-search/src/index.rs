//! [`ToolIndex`]: the tools of a toolset, searchable by the words of a need; kept in step with
//! the toolset's list one tool at a time.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use toolport_tools::Tool;

use crate::Thesaurus;
use crate::analyzer::{Analyzer, split_words};
use crate::bm25::{Bm25, Slot};
use crate::tool_text::ToolText;

/// How much a word counts in each field of a tool.
mod weights {
    pub(super) const NAME: f32 = 3.0;
    pub(super) const TITLE: f32 = 2.0;
    pub(super) const DESCRIPTION: f32 = 0.7;
    pub(super) const PARAMETER_NAMES: f32 = 0.5;
    pub(super) const PARAMETER_DESCRIPTIONS: f32 = 0.5;
    pub(super) const SERVER: f32 = 1.5;
    /// How much a query's thesaurus concept counts against one of its own words.
    pub(super) const QUERY_CONCEPT: f32 = 2.0;
}

/// What a query naming a tool outright adds to that tool's score: more than any words can, so
/// a tool named in the query comes first whatever other descriptions say.
const NAMED_BONUS: f32 = 1.0e6;

/// The prefix of a concept's term, which no word can have (words are letters and digits).
const CONCEPT: char = '~';

/// One tool in the index.
#[derive(Debug)]
struct Entry {
    text: ToolText,
    fingerprint: u64,
    /// The tool last listed with this text; dead once nobody offers it any more.
    tool: Weak<dyn Tool>,
    terms: HashMap<String, f32>,
    /// Its embedding, once the embedder has made it.
    embedding: Option<Arc<[f32]>>,
}

/// One tool a search found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Hit {
    /// The slot of its entry.
    pub(crate) slot: Slot,
    /// The name the model calls it by.
    pub(crate) name: String,
    pub(crate) score: f32,
}

/// The tools of a toolset by the words of their name, title, description, parameters and
/// server.
#[derive(Debug)]
pub(crate) struct ToolIndex {
    analyzer: Analyzer,
    bm25: Bm25,
    entries: Vec<Option<Entry>>,
    free: Vec<Slot>,
    /// Each entry's slot, by its name as the model calls it.
    by_name: HashMap<String, Slot>,
    /// Each entry's slot by its lowercase names (the model's and the server's) that are
    /// identifiers of several words (`read_file`, not `get`), for a query that names a tool.
    by_lowercase_name: HashMap<String, Slot>,
    /// The addresses of the tools of the last list synced, to skip a list that has not
    /// changed.
    last_list: Vec<usize>,
}

impl ToolIndex {
    /// An empty index that matches words through `thesaurus`.
    pub(crate) fn new(thesaurus: &Thesaurus) -> Self {
        Self {
            analyzer: Analyzer::new(thesaurus),
            bm25: Bm25::default(),
            entries: Vec::new(),
            free: Vec::new(),
            by_name: HashMap::new(),
            by_lowercase_name: HashMap::new(),
            last_list: Vec::new(),
        }
    }

    /// Brings the index in step with `tools`, a list the toolset offers now: a tool listed
    /// for the first time, or whose text changed, is indexed (again); a tool nobody offers any
    /// more (its toolset listed again without it, or it left) leaves. A list of the very tools
    /// synced last costs one comparison per tool.
    pub(crate) fn sync(&mut self, tools: &[Arc<dyn Tool>]) {
        let addresses = tools
            .iter()
            .map(|tool| Arc::as_ptr(tool).cast::<()>().addr());
        if addresses.clone().eq(self.last_list.iter().copied()) {
            return;
        }
        self.last_list = addresses.collect();
        for tool in tools {
            self.sync_one(tool);
        }
        let listed: std::collections::HashSet<&str> =
            tools.iter().map(|tool| tool.name()).collect();
        let gone: Vec<Slot> = self
            .entries
            .iter()
            .enumerate()
            .filter_map(|(slot, entry)| {
                let entry = entry.as_ref()?;
                let stale =
                    entry.tool.strong_count() == 0 && !listed.contains(entry.text.name.as_str());
                stale.then_some(slot)
            })
            .collect();
        for slot in gone {
            self.remove(slot);
        }
    }

    /// Indexes `tool` if it is new or its text changed.
    fn sync_one(&mut self, tool: &Arc<dyn Tool>) {
        if let Some(&slot) = self.by_name.get(tool.name())
            && let Some(entry) = &mut self.entries[slot]
        {
            if std::ptr::addr_eq(entry.tool.as_ptr(), Arc::as_ptr(tool)) {
                return;
            }
            let text = ToolText::of(&**tool);
            if text.fingerprint() == entry.fingerprint {
                entry.tool = Arc::downgrade(tool);
                return;
            }
            self.remove(slot);
        }
        self.insert(tool);
    }

    fn insert(&mut self, tool: &Arc<dyn Tool>) {
        let text = ToolText::of(&**tool);
        let terms = self.terms_of(&text);
        let slot = self.free.pop().unwrap_or(self.entries.len());
        if slot == self.entries.len() {
            self.entries.push(None);
        }
        self.bm25.insert(slot, &terms);
        self.by_name.insert(text.name.clone(), slot);
        for name in naming_names(&text) {
            self.by_lowercase_name.insert(name.to_lowercase(), slot);
        }
        self.entries[slot] = Some(Entry {
            fingerprint: text.fingerprint(),
            text,
            tool: Arc::downgrade(tool),
            terms,
            embedding: None,
        });
    }

    fn remove(&mut self, slot: Slot) {
        let Some(entry) = self.entries[slot].take() else {
            return;
        };
        self.bm25.remove(slot, &entry.terms);
        self.by_name.remove(&entry.text.name);
        for name in naming_names(&entry.text) {
            if self.by_lowercase_name.get(&name.to_lowercase()) == Some(&slot) {
                self.by_lowercase_name.remove(&name.to_lowercase());
            }
        }
        self.free.push(slot);
    }

    /// The weighted bag of terms of a tool's text.
    fn terms_of(&self, text: &ToolText) -> HashMap<String, f32> {
        let mut terms = HashMap::new();
        self.add_field(&mut terms, &text.name, weights::NAME);
        self.add_field(&mut terms, &text.title, weights::TITLE);
        self.add_field(&mut terms, &text.description, weights::DESCRIPTION);
        self.add_field(&mut terms, &text.parameter_names, weights::PARAMETER_NAMES);
        self.add_field(
            &mut terms,
            &text.parameter_descriptions,
            weights::PARAMETER_DESCRIPTIONS,
        );
        if let Some(server) = &text.server {
            self.add_field(&mut terms, server, weights::SERVER);
        }
        terms
    }

    fn add_field(&self, terms: &mut HashMap<String, f32>, text: &str, weight: f32) {
        let analyzed = self.analyzer.analyze(text);
        for word in analyzed.words {
            *terms.entry(word).or_default() += weight;
        }
        for concept in analyzed.concepts {
            *terms.entry(format!("{CONCEPT}{concept}")).or_default() += weight;
        }
    }

    /// The tools that `allowed` lets through, best first, at most `limit` of them, for the
    /// need in `query`: a tool the query names outright first, then by BM25 over words and
    /// thesaurus concepts.
    pub(crate) fn rank(
        &self,
        query: &str,
        allowed: impl Fn(&str) -> bool,
        limit: usize,
    ) -> Vec<Hit> {
        let mut scores = self.word_scores(query);
        for slot in self.named_in(query) {
            scores[slot] += NAMED_BONUS;
        }
        self.best(&scores, allowed, limit)
    }

    /// Each slot's BM25 score for `query`.
    fn word_scores(&self, query: &str) -> Vec<f32> {
        let analyzed = self.analyzer.analyze_query(query);
        let mut terms: HashMap<String, f32> = HashMap::new();
        for word in analyzed.words {
            *terms.entry(word).or_default() += 1.0;
        }
        for concept in analyzed.concepts {
            *terms.entry(format!("{CONCEPT}{concept}")).or_default() += weights::QUERY_CONCEPT;
        }
        let mut scores = vec![0.0; self.entries.len()];
        self.bm25.score_into(&terms, &mut scores);
        scores
    }

    /// The slots of the tools whose names `query` holds as words of its own.
    fn named_in<'a>(&'a self, query: &'a str) -> impl Iterator<Item = Slot> + 'a {
        query
            .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .filter(|word| !word.is_empty())
            .filter_map(|word| self.by_lowercase_name.get(&word.to_lowercase()).copied())
    }

    /// The `limit` best of `scores` that `allowed` lets through, best first; ties go by name.
    /// Only those `limit` are sorted and named: a search over thousands of tools orders five.
    fn best(&self, scores: &[f32], allowed: impl Fn(&str) -> bool, limit: usize) -> Vec<Hit> {
        let mut ranked: Vec<(f32, &str, Slot)> = scores
            .iter()
            .enumerate()
            .filter(|(_, score)| **score > 0.0)
            .filter_map(|(slot, score)| {
                let name = self.entries[slot].as_ref()?.text.name.as_str();
                allowed(name).then_some((*score, name, slot))
            })
            .collect();
        let order = |a: &(f32, &str, Slot), b: &(f32, &str, Slot)| {
            b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1))
        };
        if ranked.len() > limit && limit > 0 {
            ranked.select_nth_unstable_by(limit - 1, order);
        }
        ranked.truncate(limit);
        ranked.sort_unstable_by(order);
        ranked
            .into_iter()
            .map(|(score, name, slot)| Hit {
                slot,
                name: name.to_owned(),
                score,
            })
            .collect()
    }

    /// The text of the tool at `slot`.
    pub(crate) fn text(&self, slot: Slot) -> Option<&ToolText> {
        Some(&self.entries.get(slot)?.as_ref()?.text)
    }

    /// The number of tools indexed.
    pub(crate) fn len(&self) -> usize {
        self.by_name.len()
    }

    /// The tools that have no embedding yet: their slots, fingerprints and texts.
    pub(crate) fn unembedded(&self) -> Vec<(Slot, u64, String)> {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(slot, entry)| {
                let entry = entry.as_ref()?;
                entry
                    .embedding
                    .is_none()
                    .then(|| (slot, entry.fingerprint, entry.text.for_embedding()))
            })
            .collect()
    }

    /// Keeps `embedding` for the tool at `slot`, if it is still the one with `fingerprint`.
    pub(crate) fn set_embedding(&mut self, slot: Slot, fingerprint: u64, embedding: Arc<[f32]>) {
        if let Some(Some(entry)) = self.entries.get_mut(slot)
            && entry.fingerprint == fingerprint
        {
            entry.embedding = Some(embedding);
        }
    }

    /// As [`rank`](Self::rank), fusing the BM25 ranking with one by cosine similarity to
    /// `query_embedding` (reciprocal rank fusion); a tool the query names still comes first.
    pub(crate) fn rank_hybrid(
        &self,
        query: &str,
        query_embedding: &[f32],
        allowed: impl Fn(&str) -> bool,
        limit: usize,
    ) -> Vec<Hit> {
        /// Lowers the weight of the top ranks against the rest (the usual constant).
        const FUSION_K: f32 = 60.0;
        let word_scores = self.word_scores(query);
        let by_words = self.best(&word_scores, &allowed, usize::MAX);
        let similarity: Vec<f32> = self
            .entries
            .iter()
            .map(|entry| {
                entry
                    .as_ref()
                    .and_then(|entry| entry.embedding.as_deref())
                    .map_or(0.0, |embedding| cosine(embedding, query_embedding).max(0.0))
            })
            .collect();
        let by_meaning = self.best(&similarity, &allowed, usize::MAX);
        let mut fused = vec![0.0; self.entries.len()];
        for ranking in [&by_words, &by_meaning] {
            for (rank, hit) in ranking.iter().enumerate() {
                fused[hit.slot] += 1.0 / (FUSION_K + rank as f32 + 1.0);
            }
        }
        for slot in self.named_in(query) {
            fused[slot] += NAMED_BONUS;
        }
        self.best(&fused, allowed, limit)
    }
}

/// The names of a tool that a query can name it by: those of several words, since a query
/// holding `get` or `fetch` names no tool, but one holding `read_text_file` does.
fn naming_names(text: &ToolText) -> impl Iterator<Item = &String> {
    std::iter::once(&text.name)
        .chain(&text.server_name)
        .filter(|name| split_words(name).nth(1).is_some())
}

/// The cosine of the angle between `a` and `b`; 0 when either is zero or they differ in length.
fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norms =
        a.iter().map(|x| x * x).sum::<f32>().sqrt() * b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norms == 0.0 { 0.0 } else { dot / norms }
}
