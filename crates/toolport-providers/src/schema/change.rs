//! [`AdaptedSchema`] and [`SchemaChange`]: what an adapter made of a schema, and what it changed
//! or dropped on the way, so that a user or a log can see the loss.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::bounds::{InlineBound, MAX_CHANGES, MAX_SHOWN_BYTES};

/// A copy of a tool's input schema, adapted to one model provider, with every change made to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct AdaptedSchema {
    /// The schema to hand the provider.
    pub schema: Value,
    /// What the adapter changed or dropped, in the order it did it. Empty when the server's
    /// schema went through unchanged.
    pub changes: Vec<SchemaChange>,
    /// Whether the provider may enforce the schema strictly (OpenAI's `strict: true`). Always
    /// false for a provider without a strict mode, and for an OpenAI schema that could not be
    /// made strict (a [`SchemaChangeKind::NotStrict`] change says why).
    pub strict: bool,
}

impl AdaptedSchema {
    /// `schema` with no changes, not strict.
    pub fn unchanged(schema: Value) -> Self {
        Self {
            schema,
            changes: Vec::new(),
            strict: false,
        }
    }

    /// `schema`, adapted with the changes in `log`.
    pub(crate) fn new(schema: Value, log: ChangeLog, strict: bool) -> Self {
        Self {
            schema,
            changes: log.into_changes(),
            strict,
        }
    }
}

/// One change an adapter made, at a place in the schema.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SchemaChange {
    /// Where, as a JSON Pointer into the server's schema (`""` is the root,
    /// `/properties/address` a property's schema). Inside an inlined `$ref`, the pointer goes
    /// through the place of the `$ref`.
    pub path: String,
    /// What was done there.
    pub kind: SchemaChangeKind,
}

impl SchemaChange {
    /// A change of `kind` at `path`.
    pub fn new(path: impl Into<String>, kind: SchemaChangeKind) -> Self {
        Self {
            path: path.into(),
            kind,
        }
    }

    /// Whether the change lost something a model or a validator could have used: a dropped
    /// keyword, a cut recursion, a replaced `$ref`, a lost strict mode. Rewrites that keep the
    /// meaning (an inlined `$ref`, a `const` as a one-value `enum`) are not losses, and neither
    /// is dropping the document's own metadata (`$schema`, `$id`, `$comment`).
    pub fn is_loss(&self) -> bool {
        if let SchemaChangeKind::Dropped { keyword, .. } = &self.kind {
            return !matches!(keyword.as_str(), "$schema" | "$id" | "$comment");
        }
        matches!(
            self.kind,
            SchemaChangeKind::RecursionCut { .. }
                | SchemaChangeKind::InlineBudgetSpent { .. }
                | SchemaChangeKind::Omitted { .. }
                | SchemaChangeKind::ExternalRef { .. }
                | SchemaChangeKind::UnresolvedRef { .. }
                | SchemaChangeKind::FalseSchema
                | SchemaChangeKind::RootReplaced { .. }
                | SchemaChangeKind::NotStrict { .. }
        )
    }
}

/// The kinds of change an adapter makes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum SchemaChangeKind {
    /// A keyword the provider rejects was removed, with the value it had.
    Dropped {
        /// The keyword, such as `additionalProperties` or `format`.
        keyword: String,
        /// Its value in the server's schema.
        value: Value,
    },
    /// A local `$ref` was replaced by a copy of the schema it points to.
    Inlined {
        /// The reference, such as `#/$defs/Address`.
        reference: String,
    },
    /// A recursive `$ref` deeper than the adapter's bound was replaced by a schema that keeps
    /// only the target's type and description.
    RecursionCut {
        /// The reference.
        reference: String,
        /// How many times it was inlined inside itself before the cut.
        depth: usize,
    },
    /// Inlining this `$ref` would have passed a bound of the adapter (on the `$ref`s inlined,
    /// the bytes they add, or the depth of the schema), so it keeps only its target's type and
    /// description, as far as the bytes left allow.
    InlineBudgetSpent {
        /// The reference.
        reference: String,
        /// The bound it would have passed.
        bound: InlineBound,
    },
    /// A `$ref` to another document. It is never fetched; an unconstrained schema stands in.
    ExternalRef {
        /// The reference.
        reference: String,
    },
    /// A local `$ref` that points nowhere in the document; an unconstrained schema stands in.
    UnresolvedRef {
        /// The reference.
        reference: String,
    },
    /// A `false` schema (which no value matches) became an unconstrained one: the provider has
    /// no way to say "nothing".
    FalseSchema,
    /// `allOf` was merged into the schema that holds it.
    MergedAllOf,
    /// `oneOf` became `anyOf`: the provider has no exclusive union, so a value that matches
    /// several branches is accepted too.
    OneOfAsAnyOf,
    /// An `anyOf` or `oneOf` whose branches include `null` became the other branches, marked
    /// `nullable`.
    NullableUnion,
    /// A type array was rewritten: `["T", "null"]` as a nullable `T`, several types as `anyOf`.
    TypeArray {
        /// The types it listed.
        types: Vec<String>,
    },
    /// `const` became a one-value `enum`.
    ConstAsEnum,
    /// `additionalProperties: false` was set on an object, as strict mode requires.
    ClosedObject,
    /// An optional property was made required, and nullable if it was not, as strict mode
    /// requires: the model sends `null` where it would have left the property out.
    /// [`AdaptedSchema::strip_added_nulls`] takes those `null`s out again.
    RequiredNullable {
        /// The property's name.
        property: String,
        /// Whether `null` was added to the values the property accepts (false when the server
        /// allowed `null` already).
        null_added: bool,
    },
    /// `required` named a property the schema does not define; the name was removed.
    UnknownRequired {
        /// The property's name.
        property: String,
    },
    /// The root had no `type` and `"type": "object"` was added.
    ObjectTypeAdded,
    /// The root was not an object schema, which the provider requires. It was replaced by an
    /// object schema that accepts any arguments.
    RootReplaced {
        /// The root as the server wrote it.
        original: Value,
    },
    /// The schema cannot be made strict, for this reason; the tool is declared non-strict.
    NotStrict {
        /// Why, naming the place and the keyword.
        reason: String,
    },
    /// The adapter made more changes than an [`AdaptedSchema`] lists
    /// ([`MAX_CHANGES`](super::MAX_CHANGES)); this many more are not listed.
    Omitted {
        /// How many.
        count: usize,
    },
}

impl fmt::Display for SchemaChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(f, "{path}: ")?;
        match &self.kind {
            SchemaChangeKind::Dropped { keyword, value } => {
                write!(f, "dropped `{keyword}: {value}`")
            }
            SchemaChangeKind::Inlined { reference } => write!(f, "inlined `{reference}`"),
            SchemaChangeKind::RecursionCut { reference, depth } => {
                write!(f, "cut the recursion of `{reference}` at depth {depth}")
            }
            SchemaChangeKind::InlineBudgetSpent { reference, bound } => {
                write!(
                    f,
                    "cut `{reference}`: inlining it would pass the bound of {bound}"
                )
            }
            SchemaChangeKind::ExternalRef { reference } => {
                write!(
                    f,
                    "replaced the external `$ref` `{reference}` (not fetched)"
                )
            }
            SchemaChangeKind::UnresolvedRef { reference } => {
                write!(f, "replaced `$ref` `{reference}`, which points nowhere")
            }
            SchemaChangeKind::FalseSchema => {
                f.write_str("a `false` schema (no value matches) as an unconstrained one")
            }
            SchemaChangeKind::MergedAllOf => f.write_str("merged `allOf`"),
            SchemaChangeKind::OneOfAsAnyOf => f.write_str("`oneOf` as `anyOf`"),
            SchemaChangeKind::NullableUnion => f.write_str("a union with null as `nullable`"),
            SchemaChangeKind::TypeArray { types } => {
                write!(f, "rewrote the type array [{}]", types.join(", "))
            }
            SchemaChangeKind::ConstAsEnum => f.write_str("`const` as a one-value `enum`"),
            SchemaChangeKind::ClosedObject => f.write_str("set `additionalProperties: false`"),
            SchemaChangeKind::RequiredNullable {
                property,
                null_added,
            } => {
                let nullable = if *null_added { " and nullable" } else { "" };
                write!(f, "made the optional `{property}` required{nullable}")
            }
            SchemaChangeKind::UnknownRequired { property } => {
                write!(f, "removed `{property}` from `required`: no such property")
            }
            SchemaChangeKind::ObjectTypeAdded => f.write_str("added `\"type\": \"object\"`"),
            SchemaChangeKind::RootReplaced { original } => {
                write!(
                    f,
                    "replaced a root that is not an object schema: {original}"
                )
            }
            SchemaChangeKind::NotStrict { reason } => write!(f, "not strict: {reason}"),
            SchemaChangeKind::Omitted { count } => write!(f, "{count} more changes, not listed"),
        }
    }
}

/// The changes of one adaptation, kept within bounds as they are made: at most
/// [`MAX_CHANGES`], the rest counted, and each text of the server's (a path, a reference, a
/// keyword, a name) cut at [`MAX_SHOWN_BYTES`], so that no schema makes its report larger than
/// a few megabytes.
#[derive(Debug, Clone, Default)]
pub(crate) struct ChangeLog {
    changes: Vec<SchemaChange>,
    omitted: usize,
    shortened: bool,
}

impl ChangeLog {
    /// A change of `kind` at `path`.
    pub(crate) fn push(&mut self, path: &str, kind: SchemaChangeKind) {
        if self.changes.len() == MAX_CHANGES {
            self.omitted += 1;
            return;
        }
        let mut path = path.to_owned();
        let mut kind = kind;
        let shortened = shorten(&mut path) | kind.shorten();
        self.shortened |= shortened;
        self.changes.push(SchemaChange { path, kind });
    }

    /// Whether every change is listed whole: none left out, none cut. A strict schema needs
    /// its changes whole, to take the `null`s it made the model send out again.
    pub(crate) fn is_whole(&self) -> bool {
        self.omitted == 0 && !self.shortened
    }

    /// The changes, ending with one that counts those left out, if any were.
    pub(crate) fn into_changes(mut self) -> Vec<SchemaChange> {
        if self.omitted > 0 {
            let count = self.omitted;
            self.changes
                .push(SchemaChange::new("", SchemaChangeKind::Omitted { count }));
        }
        self.changes
    }
}

impl SchemaChangeKind {
    /// Cuts each text of the server's this change holds to [`MAX_SHOWN_BYTES`]; true if one was
    /// cut. A value it holds was taken out of the schema, not copied, and stays whole.
    fn shorten(&mut self) -> bool {
        match self {
            SchemaChangeKind::Dropped { keyword: text, .. }
            | SchemaChangeKind::Inlined { reference: text }
            | SchemaChangeKind::RecursionCut {
                reference: text, ..
            }
            | SchemaChangeKind::InlineBudgetSpent {
                reference: text, ..
            }
            | SchemaChangeKind::ExternalRef { reference: text }
            | SchemaChangeKind::UnresolvedRef { reference: text }
            | SchemaChangeKind::RequiredNullable { property: text, .. }
            | SchemaChangeKind::UnknownRequired { property: text } => shorten(text),
            SchemaChangeKind::TypeArray { types } => {
                // A type array names at most the seven JSON Schema types; more are the server's noise.
                let cut = types.len() > 7;
                types.truncate(7);
                types.iter_mut().fold(cut, |cut, name| shorten(name) | cut)
            }
            SchemaChangeKind::NotStrict { reason: text } => shorten(text),
            SchemaChangeKind::FalseSchema
            | SchemaChangeKind::MergedAllOf
            | SchemaChangeKind::OneOfAsAnyOf
            | SchemaChangeKind::NullableUnion
            | SchemaChangeKind::ConstAsEnum
            | SchemaChangeKind::ClosedObject
            | SchemaChangeKind::ObjectTypeAdded
            | SchemaChangeKind::RootReplaced { .. }
            | SchemaChangeKind::Omitted { .. } => false,
        }
    }
}

/// Cuts `text` to at most [`MAX_SHOWN_BYTES`] on a character boundary, ending it with `…`;
/// true if it was cut.
fn shorten(text: &mut String) -> bool {
    if text.len() <= MAX_SHOWN_BYTES {
        return false;
    }
    let mut end = MAX_SHOWN_BYTES - '…'.len_utf8();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push('…');
    true
}
