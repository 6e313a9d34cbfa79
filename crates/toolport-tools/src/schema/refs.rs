//! `$ref`s: local ones resolved or inlined (recursion cut at a bound), the others reported and
//! replaced. A `$ref` is never fetched: a server's schema cannot make the client reach out.

use serde_json::{Map, Value};

use super::change::{SchemaChange, SchemaChangeKind};
use super::walk::for_each_subschema;

/// The most `$ref`s inlined into one schema. A server's schema is untrusted: without a bound, a
/// chain of definitions that each use the next twice grows exponentially when inlined.
pub(crate) const INLINE_BUDGET: usize = 512;

/// What a `$ref` points to.
pub(crate) enum Target<'a> {
    /// A schema in the same document.
    Local(&'a Value),
    /// Another document, which is never fetched.
    External,
    /// A local reference that names nothing in the document.
    Unresolved,
}

/// Resolves `reference` in `root`: `#` and `#/json/pointer` fragments are local, anything that
/// does not start with `#` is another document.
pub(crate) fn resolve<'a>(root: &'a Value, reference: &str) -> Target<'a> {
    let Some(fragment) = reference.strip_prefix('#') else {
        return Target::External;
    };
    if fragment.is_empty() {
        return Target::Local(root);
    }
    if !fragment.starts_with('/') {
        return Target::Unresolved;
    }
    match root.pointer(fragment) {
        Some(target @ Value::Object(_)) | Some(target @ Value::Bool(_)) => Target::Local(target),
        _ => Target::Unresolved,
    }
}

/// The `$ref` of a schema node, when it has one.
pub(crate) fn reference_of(node: &Map<String, Value>) -> Option<&str> {
    node.get("$ref").and_then(Value::as_str)
}

/// `target` with `siblings` (the keywords beside the `$ref`, which 2020-12 applies too) laid
/// over it.
pub(crate) fn merge_siblings(target: Value, siblings: &Map<String, Value>) -> Value {
    let mut merged = match target {
        Value::Object(members) => members,
        _ => Map::new(),
    };
    for (keyword, value) in siblings {
        if keyword != "$ref" {
            merged.insert(keyword.clone(), value.clone());
        }
    }
    Value::Object(merged)
}

/// Replaces a `$ref` that is not local, or points nowhere, with its siblings alone (an
/// unconstrained schema when it has none), and reports it. Local `$ref`s stay.
pub(crate) fn replace_foreign_refs(
    root_copy: &mut Value,
    original: &Value,
    changes: &mut Vec<SchemaChange>,
) {
    replace_foreign_in(root_copy, "", original, changes);
}

fn replace_foreign_in(
    node: &mut Value,
    path: &str,
    original: &Value,
    changes: &mut Vec<SchemaChange>,
) {
    let Value::Object(members) = node else {
        return;
    };
    if let Some(reference) = reference_of(members) {
        let kind = match resolve(original, reference) {
            Target::Local(_) => None,
            Target::External => Some(SchemaChangeKind::ExternalRef {
                reference: reference.to_owned(),
            }),
            Target::Unresolved => Some(SchemaChangeKind::UnresolvedRef {
                reference: reference.to_owned(),
            }),
        };
        if let Some(kind) = kind {
            members.shift_remove("$ref");
            changes.push(SchemaChange::new(path, kind));
        }
    }
    for_each_subschema(members, path, &mut |child, child_path| {
        replace_foreign_in(child, child_path, original, changes);
    });
}

/// A copy of `original` with every local `$ref` replaced by the schema it points to, and the
/// root's `$defs` and `definitions` removed. A reference inlined inside itself
/// `recursion_depth` times is cut: it keeps only its target's `type` and `description`.
/// External and unresolved references are replaced as [`replace_foreign_refs`] does.
pub(crate) fn inline_local_refs(
    original: &Value,
    recursion_depth: usize,
    changes: &mut Vec<SchemaChange>,
) -> Value {
    let mut copy = original.clone();
    if let Value::Object(members) = &mut copy {
        members.shift_remove("$defs");
        members.shift_remove("definitions");
    }
    let mut inliner = Inliner {
        original,
        recursion_depth,
        expanding: Vec::new(),
        budget: INLINE_BUDGET,
        changes,
    };
    inliner.inline(&mut copy, "");
    copy
}

struct Inliner<'a> {
    original: &'a Value,
    recursion_depth: usize,
    /// The references being inlined, outermost first.
    expanding: Vec<String>,
    budget: usize,
    changes: &'a mut Vec<SchemaChange>,
}

impl Inliner<'_> {
    fn inline(&mut self, node: &mut Value, path: &str) {
        let Value::Object(members) = node else {
            return;
        };
        if let Some(reference) = reference_of(members).map(str::to_owned) {
            *node = self.expand(&reference, members, path);
            return;
        }
        for_each_subschema(members, path, &mut |child, child_path| {
            self.inline(child, child_path);
        });
    }

    /// The schema that replaces a node whose `$ref` is `reference`.
    fn expand(&mut self, reference: &str, node: &Map<String, Value>, path: &str) -> Value {
        let original = self.original;
        let target = match resolve(original, reference) {
            Target::Local(target) => target,
            Target::External => {
                self.report(
                    path,
                    SchemaChangeKind::ExternalRef {
                        reference: reference.to_owned(),
                    },
                );
                return merge_siblings(Value::Object(Map::new()), node);
            }
            Target::Unresolved => {
                self.report(
                    path,
                    SchemaChangeKind::UnresolvedRef {
                        reference: reference.to_owned(),
                    },
                );
                return merge_siblings(Value::Object(Map::new()), node);
            }
        };
        let depth = self.expanding.iter().filter(|r| *r == reference).count();
        if depth >= self.recursion_depth {
            self.report(
                path,
                SchemaChangeKind::RecursionCut {
                    reference: reference.to_owned(),
                    depth,
                },
            );
            return merge_siblings(outline(target), node);
        }
        if self.budget == 0 {
            self.report(
                path,
                SchemaChangeKind::InlineBudgetSpent {
                    reference: reference.to_owned(),
                },
            );
            return merge_siblings(outline(target), node);
        }
        self.budget -= 1;
        self.report(
            path,
            SchemaChangeKind::Inlined {
                reference: reference.to_owned(),
            },
        );
        let mut expanded = target.clone();
        if let Value::Object(members) = &mut expanded
            && std::ptr::eq(target, original)
        {
            members.shift_remove("$defs");
            members.shift_remove("definitions");
        }
        self.expanding.push(reference.to_owned());
        self.inline(&mut expanded, path);
        self.expanding.pop();
        merge_siblings(expanded, node)
    }

    fn report(&mut self, path: &str, kind: SchemaChangeKind) {
        self.changes.push(SchemaChange::new(path, kind));
    }
}

/// What is left of a schema at a cut: its `type` and `description`.
fn outline(target: &Value) -> Value {
    let mut outline = Map::new();
    for keyword in ["type", "description"] {
        if let Some(value) = target.get(keyword) {
            outline.insert(keyword.to_owned(), value.clone());
        }
    }
    Value::Object(outline)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_chain_that_doubles_at_every_step_stops_at_the_budget() {
        let mut definitions = Map::new();
        for level in 0..30 {
            let next = format!("#/$defs/L{}", level + 1);
            definitions.insert(
                format!("L{level}"),
                json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
            );
        }
        definitions.insert("L30".into(), json!({"type": "string"}));
        let schema = json!({"$ref": "#/$defs/L0", "$defs": definitions});
        let mut changes = Vec::new();
        let inlined = inline_local_refs(&schema, 2, &mut changes);
        let inlined_count = changes
            .iter()
            .filter(|change| matches!(change.kind, SchemaChangeKind::Inlined { .. }))
            .count();
        assert_eq!(inlined_count, INLINE_BUDGET);
        assert!(inlined.to_string().len() < 1 << 20);
    }
}
