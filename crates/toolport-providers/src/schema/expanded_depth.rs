//! How deep a schema nests once its local `$ref`s are followed: what a validator that compiles
//! each `$ref` in place recurses through. A chain of definitions can nest thousands of levels
//! that way while each definition is shallow.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::refs::{Target, resolve};

/// What one schema node is, for the depth: a plain node or a local `$ref`.
struct Shape<'a> {
    /// How deep the node's own JSON nests, `$ref`s not followed.
    own_depth: usize,
    /// The local `$ref`s inside it: each target, and how deep inside the node the `$ref` sits.
    references: Vec<(&'a Value, usize)>,
}

/// How many arrays and objects `schema` nests, one within the other, with each local `$ref`
/// counted as deep as its target: a `$ref` inside its own expansion (recursion, which a
/// validator compiles lazily) counts as nothing more. Every member counts, keywords that hold
/// no schema (`enum`, `$defs`) too, so this is an upper bound. Stops counting, and returns a
/// number over `max`, once the depth passes `max`.
///
/// It never recurses more than `schema` itself nests, whatever the `$ref`s do: the graph of
/// targets is walked with a stack of its own, each target once.
///
/// `toolport-tools`' argument checks compile no validator for a schema whose expanded depth is
/// over [`MAX_DEPTH`](super::MAX_DEPTH), since compiling it would recurse that deep.
pub fn expanded_depth(schema: &Value, max: usize) -> usize {
    let mut shapes: HashMap<*const Value, Shape<'_>> = HashMap::new();
    let mut depths: HashMap<*const Value, usize> = HashMap::new();
    // The targets being measured, each with the index of its next `$ref` to follow.
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 0)];
    let mut open: HashSet<*const Value> = HashSet::from([std::ptr::from_ref(schema)]);
    while let Some(&mut (target, ref mut next)) = stack.last_mut() {
        let key = std::ptr::from_ref(target);
        let shape = shapes
            .entry(key)
            .or_insert_with(|| shape_of(schema, target));
        if let Some(&(referenced, _)) = shape.references.get(*next) {
            *next += 1;
            let referenced_key = std::ptr::from_ref(referenced);
            if !open.contains(&referenced_key) && !depths.contains_key(&referenced_key) {
                open.insert(referenced_key);
                stack.push((referenced, 0));
            }
            continue;
        }
        let depth = shape
            .references
            .iter()
            .map(|(referenced, at)| at + depths.get(&std::ptr::from_ref(*referenced)).unwrap_or(&0))
            .fold(shape.own_depth, usize::max);
        if depth > max {
            return depth;
        }
        depths.insert(key, depth);
        open.remove(&key);
        stack.pop();
    }
    depths[&std::ptr::from_ref(schema)]
}

/// The shape of `node`, a target in `document`.
fn shape_of<'a>(document: &'a Value, node: &'a Value) -> Shape<'a> {
    let mut shape = Shape {
        own_depth: 0,
        references: Vec::new(),
    };
    // Within one target the walk follows the JSON only, with a stack of its own.
    let mut pending = vec![(node, 0)];
    while let Some((value, above)) = pending.pop() {
        match value {
            Value::Object(members) => {
                if let Some(reference) = members.get("$ref").and_then(Value::as_str)
                    && let Target::Local(target) = resolve(document, reference)
                {
                    shape.references.push((target, above));
                }
                shape.own_depth = shape.own_depth.max(above + 1);
                pending.extend(members.values().map(|member| (member, above + 1)));
            }
            Value::Array(items) => {
                shape.own_depth = shape.own_depth.max(above + 1);
                pending.extend(items.iter().map(|item| (item, above + 1)));
            }
            _ => {}
        }
    }
    shape
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_schema_without_refs_is_as_deep_as_its_json() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(expanded_depth(&schema, 100), 3);
    }

    #[test]
    fn a_ref_counts_as_deep_as_its_target() {
        let schema = json!({
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"items": {"items": {"type": "string"}}}},
        });
        // root → properties → a, then A's three levels in a's place.
        assert_eq!(expanded_depth(&schema, 100), 2 + 3);
    }

    #[test]
    fn recursion_counts_once() {
        let schema = json!({
            "$ref": "#/$defs/Node",
            "$defs": {"Node": {"properties": {"children": {"items": {"$ref": "#/$defs/Node"}}}}},
        });
        // Node is 4 deep, its `$ref` to itself counting for nothing; the deepest place is that
        // `$ref` inside `$defs`, 5 deep in the root, followed once.
        assert_eq!(expanded_depth(&schema, 100), 5 + 4);
    }

    #[test]
    fn a_long_chain_passes_the_bound_without_recursing() {
        let mut definitions = serde_json::Map::new();
        for link in 0..10_000 {
            let next = json!({"items": {"$ref": format!("#/$defs/D{}", link + 1)}});
            definitions.insert(format!("D{link}"), next);
        }
        let schema = json!({"$ref": "#/$defs/D0", "$defs": definitions});
        let depth = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || expanded_depth(&schema, 128))
            .unwrap()
            .join()
            .unwrap();
        assert!(depth > 128, "{depth}");
    }
}
