//! The `toolport.lock` file: format 2 keeps each tool's description and canonical schemas,
//! format 1 kept only their sha256s. Both are read; a lock is written in format 2 unless one of
//! its pins (read from format 1) holds only sha256s.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::lock::{ContractLock, ToolPin};
use super::pinned::Pinned;

/// The format that keeps only sha256s.
const SHA256_FORMAT: u32 = 1;
/// The format that keeps descriptions and schemas whole.
const WHOLE_FORMAT: u32 = 2;

/// A lock as its file has it, each tool's pin in the lock's format.
#[derive(Serialize, Deserialize)]
struct LockFile {
    format: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    allow: Option<BTreeSet<String>>,
    tools: BTreeMap<String, Value>,
}

/// A tool's pin in format 2.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WholePin {
    description: String,
    input_schema: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    output_schema: Option<Map<String, Value>>,
}

/// A tool's pin in format 1.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sha256Pin {
    input_schema: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    output_schema: Option<String>,
    description: String,
}

impl Serialize for ContractLock {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        LockFile::from(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ContractLock {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let file = LockFile::deserialize(deserializer)?;
        Self::try_from(file).map_err(serde::de::Error::custom)
    }
}

impl From<&ContractLock> for LockFile {
    fn from(lock: &ContractLock) -> Self {
        let whole: Option<BTreeMap<&String, WholePin>> = lock
            .tools
            .iter()
            .map(|(name, pin)| Some((name, WholePin::of(pin)?)))
            .collect();
        let (format, tools) = match whole {
            Some(pins) => (WHOLE_FORMAT, pins_as_json(pins)),
            None => {
                let pins = lock
                    .tools
                    .iter()
                    .map(|(name, pin)| (name, Sha256Pin::of(pin)));
                (SHA256_FORMAT, pins_as_json(pins))
            }
        };
        Self {
            format,
            allow: lock.allow.clone(),
            tools,
        }
    }
}

/// The pins, by tool name, as the JSON of their file.
fn pins_as_json<'a, P: Serialize>(
    pins: impl IntoIterator<Item = (&'a String, P)>,
) -> BTreeMap<String, Value> {
    pins.into_iter()
        .map(|(name, pin)| {
            let value = serde_json::to_value(pin).expect("a pin always serializes");
            (name.clone(), value)
        })
        .collect()
}

impl TryFrom<LockFile> for ContractLock {
    type Error = String;

    fn try_from(file: LockFile) -> Result<Self, String> {
        let read_pin: fn(Value) -> serde_json::Result<ToolPin> = match file.format {
            SHA256_FORMAT => |value| serde_json::from_value::<Sha256Pin>(value).map(Into::into),
            WHOLE_FORMAT => |value| serde_json::from_value::<WholePin>(value).map(Into::into),
            newer => {
                return Err(format!(
                    "its format {newer} is not one this version reads \
                     ({SHA256_FORMAT} or {WHOLE_FORMAT})"
                ));
            }
        };
        let tools = file
            .tools
            .into_iter()
            .map(|(name, value)| match read_pin(value) {
                Ok(pin) => Ok((name, pin)),
                Err(error) => Err(format!("the pin of `{name}`: {error}")),
            })
            .collect::<Result<_, String>>()?;
        Ok(ContractLock {
            allow: file.allow,
            tools,
        })
    }
}

impl WholePin {
    /// The pin in format 2, when it keeps every part whole.
    fn of(pin: &ToolPin) -> Option<Self> {
        Some(Self {
            description: pin.description.whole()?.clone(),
            input_schema: pin.input_schema.whole()?.clone(),
            output_schema: match &pin.output_schema {
                Some(schema) => Some(schema.whole()?.clone()),
                None => None,
            },
        })
    }
}

impl From<WholePin> for ToolPin {
    fn from(pin: WholePin) -> Self {
        ToolPin {
            input_schema: Pinned::Whole(pin.input_schema),
            output_schema: pin.output_schema.map(Pinned::Whole),
            description: Pinned::Whole(pin.description),
        }
    }
}

impl Sha256Pin {
    /// The pin in format 1.
    fn of(pin: &ToolPin) -> Self {
        Self {
            input_schema: pin.input_schema.sha256(),
            output_schema: pin.output_schema.as_ref().map(|schema| schema.sha256()),
            description: pin.description.sha256(),
        }
    }
}

impl From<Sha256Pin> for ToolPin {
    fn from(pin: Sha256Pin) -> Self {
        ToolPin {
            input_schema: Pinned::Sha256(pin.input_schema),
            output_schema: pin.output_schema.map(Pinned::Sha256),
            description: Pinned::Sha256(pin.description),
        }
    }
}
