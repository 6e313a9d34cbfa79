//! [`ContractChange`]: one way a server's tools differ from their pin, said as one line.

use std::fmt;

use serde::Serialize;

/// One way a tool differs from its pin in a [`ContractLock`](super::ContractLock).
///
/// Its `Display` is the line `toolport check` prints: the tool's name, then what changed, as
/// in `search: input property `limit` retyped from integer to string`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ContractChange {
    /// The tool, by the server's name.
    pub tool: String,
    /// What changed.
    pub kind: ContractChangeKind,
}

impl ContractChange {
    pub(crate) fn new(tool: &str, kind: ContractChangeKind) -> Self {
        Self {
            tool: tool.to_owned(),
            kind,
        }
    }
}

/// Which of a tool's schemas a change is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolSchema {
    /// The input schema: the arguments the tool takes.
    Input,
    /// The output schema: the structured content the tool answers with.
    Output,
}

impl fmt::Display for ToolSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Input => "input",
            Self::Output => "output",
        })
    }
}

/// What changed about a pinned tool.
///
/// A property is named by its path from the schema's top: `query`, or `filter.since` for the
/// property `since` of the object property `filter`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContractChangeKind {
    /// The server lists a tool the pin does not have.
    Added,
    /// The server no longer lists a pinned tool.
    Removed,
    /// The description is not the pinned one.
    Description,
    /// The tool has an output schema now; the pin has none.
    OutputSchemaAdded,
    /// The pin has an output schema; the tool has none now.
    OutputSchemaRemoved,
    /// A property the pin does not have.
    PropertyAdded {
        /// The schema it is in.
        schema: ToolSchema,
        /// Its path.
        path: String,
        /// Whether the schema requires it.
        required: bool,
    },
    /// A pinned property the schema no longer has.
    PropertyRemoved {
        /// The schema it was in.
        schema: ToolSchema,
        /// Its path.
        path: String,
    },
    /// A property whose `type` is not the pinned one.
    PropertyRetyped {
        /// The schema it is in.
        schema: ToolSchema,
        /// Its path.
        path: String,
        /// The pinned type: `integer`, `string or null` for a list of types, `untyped` when the
        /// property had no `type`.
        from: String,
        /// The type now, written as `from` is.
        to: String,
    },
    /// A property the schema requires now, and the pin did not.
    BecameRequired {
        /// The schema it is in.
        schema: ToolSchema,
        /// Its path.
        path: String,
    },
    /// A property the pin required, and the schema does not now.
    NoLongerRequired {
        /// The schema it is in.
        schema: ToolSchema,
        /// Its path.
        path: String,
    },
    /// Keywords of a schema or of one of its properties that are not the pinned ones, besides
    /// those the other kinds say: a `description`, an `enum`, a bound, `additionalProperties`.
    KeywordsChanged {
        /// The schema.
        schema: ToolSchema,
        /// The property's path, or `None` for the schema's own keywords.
        path: Option<String>,
        /// The keywords, sorted; empty when the difference is not in a keyword (a property
        /// schema that went from `true` to `false`, say, or `required` in another order).
        keywords: Vec<String>,
    },
    /// The schema's sha256 is not the pinned one, and the pin, from a lock of format 1, keeps
    /// only its sha256: what changed in it is not known.
    SchemaSha256Changed {
        /// The schema.
        schema: ToolSchema,
    },
}

impl fmt::Display for ContractChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.tool)?;
        match &self.kind {
            ContractChangeKind::Added => {
                f.write_str("added: the server lists it, the lock does not")
            }
            ContractChangeKind::Removed => {
                f.write_str("removed: the lock pins it, the server no longer lists it")
            }
            ContractChangeKind::Description => f.write_str("the description changed"),
            ContractChangeKind::OutputSchemaAdded => f.write_str("output schema added"),
            ContractChangeKind::OutputSchemaRemoved => f.write_str("output schema removed"),
            ContractChangeKind::PropertyAdded {
                schema,
                path,
                required,
            } => {
                let required = if *required { " as required" } else { "" };
                write!(f, "{schema} property `{path}` added{required}")
            }
            ContractChangeKind::PropertyRemoved { schema, path } => {
                write!(f, "{schema} property `{path}` removed")
            }
            ContractChangeKind::PropertyRetyped {
                schema,
                path,
                from,
                to,
            } => write!(f, "{schema} property `{path}` retyped from {from} to {to}"),
            ContractChangeKind::BecameRequired { schema, path } => {
                write!(f, "{schema} property `{path}` became required")
            }
            ContractChangeKind::NoLongerRequired { schema, path } => {
                write!(f, "{schema} property `{path}` is no longer required")
            }
            ContractChangeKind::KeywordsChanged {
                schema,
                path,
                keywords,
            } => {
                match path {
                    Some(path) => write!(f, "{schema} property `{path}` changed")?,
                    None => write!(f, "the {schema} schema changed")?,
                }
                for (index, keyword) in keywords.iter().enumerate() {
                    let lead = if index == 0 { " in" } else { "," };
                    write!(f, "{lead} `{keyword}`")?;
                }
                Ok(())
            }
            ContractChangeKind::SchemaSha256Changed { schema } => write!(
                f,
                "the {schema} schema changed (the lock keeps only its sha256, not what changed)"
            ),
        }
    }
}
