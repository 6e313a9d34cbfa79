//! `$ref`s: local ones resolved or inlined (recursion cut at a bound), the others reported and
//! replaced. A `$ref` is never fetched: a server's schema cannot make the client reach out.

use serde_json::{Map, Value};

use super::change::{ChangeLog, SchemaChangeKind};
use super::copy_budget::CopyBudget;
use super::walk::{Pointer, for_each_subschema};

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
    changes: &mut ChangeLog,
) {
    replace_foreign_in(root_copy, &mut Pointer::root(), original, changes);
}

fn replace_foreign_in(
    node: &mut Value,
    path: &mut Pointer,
    original: &Value,
    changes: &mut ChangeLog,
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
            changes.push(path.as_str(), kind);
        }
    }
    for_each_subschema(members, path, &mut |child, path| {
        replace_foreign_in(child, path, original, changes);
    });
}

/// A copy of `original` with every local `$ref` replaced by the schema it points to, and the
/// root's `$defs` and `definitions` removed. A reference inlined inside itself
/// `recursion_depth` times is cut: it keeps only its target's `type` and `description`, and so
/// does one whose inlining would pass a bound of `budget`, which pays for what is inlined.
/// External and unresolved references are replaced as [`replace_foreign_refs`] does.
pub(crate) fn inline_local_refs(
    original: &Value,
    recursion_depth: usize,
    budget: &mut CopyBudget,
    changes: &mut ChangeLog,
) -> Value {
    let mut copy = match original {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .filter(|(keyword, _)| !matches!(keyword.as_str(), "$defs" | "definitions"))
                .map(|(keyword, value)| (keyword.clone(), value.clone()))
                .collect(),
        ),
        other => other.clone(),
    };
    let mut inliner = Inliner {
        original,
        recursion_depth,
        expanding: Vec::new(),
        budget,
        changes,
    };
    inliner.inline(&mut copy, &mut Pointer::root());
    copy
}

struct Inliner<'a> {
    original: &'a Value,
    recursion_depth: usize,
    /// The targets being inlined, outermost first.
    expanding: Vec<&'a Value>,
    budget: &'a mut CopyBudget,
    changes: &'a mut ChangeLog,
}

impl<'a> Inliner<'a> {
    fn inline(&mut self, node: &mut Value, path: &mut Pointer) {
        let Value::Object(members) = node else {
            return;
        };
        if let Some(reference) = reference_of(members).map(str::to_owned) {
            *node = self.expand(&reference, members, path);
            return;
        }
        for_each_subschema(members, path, &mut |child, path| {
            self.inline(child, path);
        });
    }

    /// The schema that replaces a node whose `$ref` is `reference`.
    fn expand(&mut self, reference: &str, node: &Map<String, Value>, path: &mut Pointer) -> Value {
        let original: &'a Value = self.original;
        let target = match resolve(original, reference) {
            Target::Local(target) => target,
            Target::External => {
                let reference = reference.to_owned();
                self.changes
                    .push(path.as_str(), SchemaChangeKind::ExternalRef { reference });
                return merge_siblings(Value::Object(Map::new()), node);
            }
            Target::Unresolved => {
                let reference = reference.to_owned();
                self.changes
                    .push(path.as_str(), SchemaChangeKind::UnresolvedRef { reference });
                return merge_siblings(Value::Object(Map::new()), node);
            }
        };
        let depth = self
            .expanding
            .iter()
            .filter(|expanding| std::ptr::eq(**expanding, target))
            .count();
        if depth >= self.recursion_depth {
            let reference = reference.to_owned();
            self.changes.push(
                path.as_str(),
                SchemaChangeKind::RecursionCut { reference, depth },
            );
            return merge_siblings(self.budget.outline(target), node);
        }
        if let Err(bound) = self.budget.spend_on_inlining(target, path.depth()) {
            let reference = reference.to_owned();
            self.changes.push(
                path.as_str(),
                SchemaChangeKind::InlineBudgetSpent { reference, bound },
            );
            return merge_siblings(self.budget.outline(target), node);
        }
        let reference = reference.to_owned();
        self.changes
            .push(path.as_str(), SchemaChangeKind::Inlined { reference });
        let mut expanded = target.clone();
        if let Value::Object(members) = &mut expanded
            && std::ptr::eq(target, original)
        {
            members.shift_remove("$defs");
            members.shift_remove("definitions");
        }
        self.expanding.push(target);
        self.inline(&mut expanded, path);
        self.expanding.pop();
        merge_siblings(expanded, node)
    }
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
        let mut changes = ChangeLog::default();
        let inlined = inline_local_refs(&schema, 2, &mut CopyBudget::default(), &mut changes);
        let changes = changes.into_changes();
        let inlined_count = changes
            .iter()
            .filter(|change| matches!(change.kind, SchemaChangeKind::Inlined { .. }))
            .count();
        assert_eq!(inlined_count, crate::schema::MAX_INLINED_REFS);
        assert!(inlined.to_string().len() < 1 << 20);
    }
}
