//! The evaluation of tool search: needs phrased as users and models state them, over the
//! captured tool lists of real servers, each labelled with the tools that answer it
//! (`tests/search_eval/README.md`). Prints recall@1 and recall@5 on the tuning half and on the
//! held-out half, which no tuning looked at, for the search as shipped, without its thesaurus,
//! and for plain BM25, and the search's on the blind set
//! (`cargo test -p toolport-search --test search_eval -- --nocapture`).
//! `TOOLPORT_SEARCH_EVAL_MISSES=1` lists the needs of the tuning half and of the blind set not
//! found first; `TOOLPORT_SEARCH_EVAL_NEEDS=FILE` adds a set of needs of one's own, in the same
//! form.
//!
//! The goal is recall@5 0.9 and recall@1 0.7 on the held-out half; the search reaches 0.888 and
//! 0.551 (2026-12-06), so the test holds it at [`HELD_OUT_FLOOR`] until the goal is met, and a
//! change that loses ground fails.

mod support;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use support::{GivenToolset, ListedTool};
use toolport_search::{SearchToolset, Thesaurus};
use toolport_tools::Tool;

/// What the held-out half must keep: the figures of 2026-12-06, short of the goal (recall@5
/// 0.9, recall@1 0.7).
const HELD_OUT_FLOOR: Recall = Recall {
    at_1: 0.55,
    at_5: 0.88,
};

/// One labelled need.
#[derive(Debug, serde::Deserialize)]
struct Need {
    id: String,
    query: String,
    /// The tools that answer it, as `server/tool`.
    expected: Vec<String>,
}

/// The servers' tools, each named as a fleet would name it (`{server}__{tool}` where two
/// servers share a name), with the label of each name.
struct Fleet {
    tools: Vec<Arc<dyn Tool>>,
    labels: HashMap<String, String>,
}

fn eval_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/search_eval"))
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fleet() -> Fleet {
    let mut servers: Vec<(String, Vec<Value>)> = std::fs::read_dir(eval_dir().join("servers"))
        .unwrap()
        .map(|entry| {
            let server = read_json(&entry.unwrap().path());
            let id = server["server"].as_str().unwrap().to_owned();
            (id, server["tools"].as_array().unwrap().clone())
        })
        .collect();
    servers.sort_by(|a, b| a.0.cmp(&b.0));
    let mut publishers: HashMap<String, usize> = HashMap::new();
    for (_, tools) in &servers {
        for tool in tools {
            *publishers
                .entry(tool["name"].as_str().unwrap().to_owned())
                .or_default() += 1;
        }
    }
    let mut fleet = Fleet {
        tools: Vec::new(),
        labels: HashMap::new(),
    };
    for (server, tools) in &servers {
        for listing in tools {
            let own = listing["name"].as_str().unwrap();
            let name = if publishers[own] > 1 {
                format!("{server}__{own}")
            } else {
                own.to_owned()
            };
            fleet.labels.insert(name.clone(), format!("{server}/{own}"));
            fleet
                .tools
                .push(ListedTool::listed(listing, &name, Some(server)));
        }
    }
    fleet
}

fn needs(half: &str) -> Vec<Need> {
    needs_in(&eval_dir().join(format!("queries/{half}.json")))
}

fn needs_in(path: &Path) -> Vec<Need> {
    serde_json::from_value(read_json(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How often the right tool is first, and in the top five.
#[derive(Debug, Clone, Copy)]
struct Recall {
    at_1: f64,
    at_5: f64,
}

impl std::fmt::Display for Recall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "recall@1 {:.3}  recall@5 {:.3}", self.at_1, self.at_5)
    }
}

/// The recall of `rank` (a need's query to labels, best first) over `needs`; each need whose
/// tool it does not rank first is handed to `missed`.
fn recall(
    needs: &[Need],
    rank: impl Fn(&str) -> Vec<String>,
    mut missed: impl FnMut(&Need, &[String]),
) -> Recall {
    let (mut first, mut top_five) = (0, 0);
    for need in needs {
        let ranked = rank(&need.query);
        let found_at = ranked
            .iter()
            .take(5)
            .position(|label| need.expected.contains(label));
        first += usize::from(found_at == Some(0));
        top_five += usize::from(found_at.is_some());
        if found_at != Some(0) {
            missed(need, &ranked);
        }
    }
    Recall {
        at_1: first as f64 / needs.len() as f64,
        at_5: top_five as f64 / needs.len() as f64,
    }
}

async fn ranking(
    fleet: &Fleet,
    thesaurus: Thesaurus,
    needs: &[&[Need]],
) -> impl Fn(&str) -> Vec<String> {
    let toolset = SearchToolset::builder_shared(GivenToolset::new(fleet.tools.clone()))
        .thesaurus(thesaurus)
        .build();
    let mut ranked = HashMap::new();
    for needs in needs {
        for need in needs.iter() {
            let hits = toolset.search(&need.query, None, 5).await.unwrap();
            let labels: Vec<String> = hits
                .iter()
                .map(|hit| fleet.labels[hit.tool.name()].clone())
                .collect();
            ranked.insert(need.query.clone(), labels);
        }
    }
    move |query: &str| ranked[query].clone()
}

#[tokio::test]
async fn search_finds_the_tool_for_needs_it_was_not_tuned_on() {
    let fleet = fleet();
    let (tuning, held_out) = (needs("tuning"), needs("held_out"));
    let print_misses = std::env::var_os("TOOLPORT_SEARCH_EVAL_MISSES").is_some();
    let own = std::env::var_os("TOOLPORT_SEARCH_EVAL_NEEDS")
        .map(|path| needs_in(Path::new(&path)))
        .unwrap_or_default();
    let blind = needs("blind");
    let all: [&[Need]; 4] = [&tuning, &held_out, &blind, &own];

    let full = ranking(&fleet, Thesaurus::tools(), &all).await;
    let no_thesaurus = ranking(&fleet, Thesaurus::empty(), &all).await;
    let plain = plain_bm25::Index::new(&fleet);
    let plain = |query: &str| plain.rank(query);

    println!(
        "{} tools, {} + {} needs",
        fleet.tools.len(),
        tuning.len(),
        held_out.len()
    );
    let show_miss = |need: &Need, ranked: &[String]| {
        if print_misses {
            let at = ranked
                .iter()
                .position(|label| need.expected.contains(label));
            let at = at.map_or("missed".to_owned(), |at| format!("#{}", at + 1));
            println!(
                "  {at} {} {:?}: want {:?}, got {:?}",
                need.id, need.query, need.expected, ranked
            );
        }
    };
    let tuned = recall(&tuning, &full, show_miss);
    let unseen = recall(&held_out, &full, |_, _| {});
    println!("search, tuning:          {tuned}");
    println!("search, held out:        {unseen}");
    println!(
        "search, blind set:       {}",
        recall(&blind, &full, show_miss)
    );
    if !own.is_empty() {
        println!(
            "search, own needs:       {}",
            recall(&own, &full, show_miss)
        );
    }
    for (name, rank) in [
        (
            "no thesaurus",
            &no_thesaurus as &dyn Fn(&str) -> Vec<String>,
        ),
        ("plain BM25", &plain),
    ] {
        println!(
            "{name}, tuning: {:>5}{}",
            "",
            recall(&tuning, rank, |_, _| {})
        );
        println!(
            "{name}, held out: {:>3}{}",
            "",
            recall(&held_out, rank, |_, _| {})
        );
    }
    assert!(unseen.at_5 >= HELD_OUT_FLOOR.at_5, "held out: {unseen}");
    assert!(unseen.at_1 >= HELD_OUT_FLOOR.at_1, "held out: {unseen}");
}

/// BM25 as it comes, for comparison: the words of each tool's name, description and parameter
/// names, lowercased and split at anything but letters and digits; no identifier splitting,
/// stemming or thesaurus.
mod plain_bm25 {
    use std::collections::HashMap;

    use super::Fleet;

    pub(super) struct Index {
        documents: Vec<(String, HashMap<String, f64>, f64)>,
        holding: HashMap<String, f64>,
        average_length: f64,
    }

    fn words(text: &str) -> impl Iterator<Item = String> + '_ {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
    }

    impl Index {
        pub(super) fn new(fleet: &Fleet) -> Self {
            let mut holding = HashMap::new();
            let documents: Vec<_> = fleet
                .tools
                .iter()
                .map(|tool| {
                    let declaration = tool.declaration();
                    let parameters = declaration.parameters["properties"]
                        .as_object()
                        .map(|properties| properties.keys().cloned().collect::<Vec<_>>().join(" "))
                        .unwrap_or_default();
                    let text = format!(
                        "{} {} {}",
                        declaration.name, declaration.description, parameters
                    );
                    let mut counts: HashMap<String, f64> = HashMap::new();
                    for word in words(&text) {
                        *counts.entry(word).or_default() += 1.0;
                    }
                    for word in counts.keys() {
                        *holding.entry(word.clone()).or_default() += 1.0;
                    }
                    let length = counts.values().sum();
                    (fleet.labels[&declaration.name].clone(), counts, length)
                })
                .collect();
            let average_length =
                documents.iter().map(|d| d.2).sum::<f64>() / documents.len() as f64;
            Self {
                documents,
                holding,
                average_length,
            }
        }

        pub(super) fn rank(&self, query: &str) -> Vec<String> {
            let (k1, b, n) = (1.2, 0.75, self.documents.len() as f64);
            let query: Vec<String> = words(query).collect();
            let mut scored: Vec<(f64, &String)> = self
                .documents
                .iter()
                .map(|(label, counts, length)| {
                    let score = query
                        .iter()
                        .filter_map(|word| Some((counts.get(word)?, self.holding[word])))
                        .map(|(f, holding)| {
                            let idf = (1.0 + (n - holding + 0.5) / (holding + 0.5)).ln();
                            idf * f * (k1 + 1.0)
                                / (f + k1 * (1.0 - b + b * length / self.average_length))
                        })
                        .sum();
                    (score, label)
                })
                .filter(|(score, _)| *score > 0.0)
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
            scored
                .into_iter()
                .take(5)
                .map(|(_, label)| label.clone())
                .collect()
        }
    }
}
