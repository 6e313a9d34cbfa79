//! [`AdaptedSchema`] and [`SchemaChange`]: what an adapter made of a schema, and what it changed
//! or dropped on the way, so that a user or a log can see the loss.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

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
    /// The schema had already inlined as many `$ref`s as an adapter inlines into one schema (a
    /// bound against schemas that grow exponentially when inlined), so this one keeps only its
    /// target's type and description.
    InlineBudgetSpent {
        /// The reference.
        reference: String,
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
            SchemaChangeKind::InlineBudgetSpent { reference } => {
                write!(f, "cut `{reference}`: too many `$ref`s inlined already")
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
        }
    }
}
