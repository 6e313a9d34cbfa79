//! [`CopyBudget`]: what adapting one schema may still spend on copies of its parts (inlined
//! `$ref`s, the outlines left where inlining stopped, a union's branch copied for each type),
//! so that no schema grows past a fixed size however it refers to itself.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::bounds::{InlineBound, MAX_ADDED_BYTES, MAX_DEPTH, MAX_INLINED_REFS};
use crate::json_measure;

/// How large and how deep a `$ref`'s target is, measured once.
#[derive(Debug, Clone, Copy)]
struct Cost {
    bytes: usize,
    depth: usize,
}

/// The `$ref`s that may still be inlined and the bytes that copies may still add to one
/// schema.
#[derive(Debug)]
pub(crate) struct CopyBudget {
    references: usize,
    bytes: usize,
    /// Each target's cost, by its address in the document.
    costs: HashMap<*const Value, Cost>,
}

impl Default for CopyBudget {
    fn default() -> Self {
        Self {
            references: MAX_INLINED_REFS,
            bytes: MAX_ADDED_BYTES,
            costs: HashMap::new(),
        }
    }
}

impl CopyBudget {
    /// Spends what inlining `target` where a node `at_depth` deep stands costs, or says which
    /// bound it would pass (and spends nothing).
    pub(crate) fn spend_on_inlining(
        &mut self,
        target: &Value,
        at_depth: usize,
    ) -> Result<(), InlineBound> {
        let cost = *self
            .costs
            .entry(std::ptr::from_ref(target))
            .or_insert_with(|| Cost {
                bytes: json_measure::size(target),
                depth: json_measure::depth(target),
            });
        if self.references == 0 {
            return Err(InlineBound::References);
        }
        if at_depth + cost.depth > MAX_DEPTH {
            return Err(InlineBound::Depth);
        }
        if !self.spend(cost.bytes) {
            return Err(InlineBound::Bytes);
        }
        self.references -= 1;
        Ok(())
    }

    /// Spends `bytes` if that many are left; says whether it did.
    pub(crate) fn spend(&mut self, bytes: usize) -> bool {
        match self.bytes.checked_sub(bytes) {
            Some(left) => {
                self.bytes = left;
                true
            }
            None => false,
        }
    }

    /// What stands in for `target` where its inlining stopped: its `type` and `description`,
    /// each as far as the bytes left allow.
    pub(crate) fn outline(&mut self, target: &Value) -> Value {
        let mut outline = Map::new();
        for keyword in ["type", "description"] {
            if let Some(value) = target.get(keyword) {
                let bytes = json_measure::size_of_str(keyword) + 1 + json_measure::size(value);
                if self.spend(bytes) {
                    outline.insert(keyword.to_owned(), value.clone());
                }
            }
        }
        Value::Object(outline)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_bound_refuses_on_its_own() {
        let target = json!({"type": "array", "items": {"type": "string"}});
        let mut budget = CopyBudget::default();
        assert_eq!(
            budget.spend_on_inlining(&target, MAX_DEPTH - 1),
            Err(InlineBound::Depth)
        );
        assert_eq!(budget.spend_on_inlining(&target, MAX_DEPTH - 2), Ok(()));

        let large = json!({"description": "x".repeat(MAX_ADDED_BYTES)});
        assert_eq!(budget.spend_on_inlining(&large, 0), Err(InlineBound::Bytes));
        // A refusal spends nothing, and the outline keeps what still fits.
        assert_eq!(budget.outline(&target), json!({"type": "array"}));
        assert_eq!(budget.outline(&large), json!({}));

        budget.references = 0;
        assert_eq!(
            budget.spend_on_inlining(&target, 0),
            Err(InlineBound::References)
        );
    }
}
