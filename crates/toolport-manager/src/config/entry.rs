//! One server's entry: read from its JSON object, and written back onto the object it came
//! from, so that a save keeps the fields Toolport does not know and the order of the keys.

use std::num::NonZeroUsize;
use std::time::Duration;

use serde_json::{Map, Value, json};
use toolport_core::Secret;

use super::server::OtherFields;
use super::{ConfigError, NetworkConfig, RestartPolicy, ServerConfig, TransportConfig};

/// The keys Toolport reads, in the order a new entry is written.
const KNOWN: [&str; 21] = [
    "type",
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "proxy",
    "caFiles",
    "clientCert",
    "clientKey",
    "disabled",
    "autoApprove",
    "alwaysAllow",
    "timeout",
    "startupTimeout",
    "maxConcurrentCalls",
    "restart",
    "includeTools",
    "excludeTools",
    "required",
];

/// The keys that say how to reach a stdio or remote server.
const TRANSPORT_KEYS: [&str; 6] = ["command", "args", "env", "cwd", "url", "headers"];

/// The keys of [`RestartPolicy`] in a `restart` object.
const RESTART_KEYS: [&str; 4] = ["maxAttempts", "backoffMs", "maxBackoffMs", "stableAfterMs"];

/// The key Toolport reads `key` as: Cline's `alwaysAllow` is `autoApprove`.
fn canonical(key: &str) -> &str {
    match key {
        "alwaysAllow" => "autoApprove",
        _ => key,
    }
}

/// Reads the entry of server `id`.
pub(crate) fn parse_entry(id: &str, entry: &Value) -> Result<ServerConfig, ConfigError> {
    let Value::Object(fields) = entry else {
        return Err(ConfigError::entry(id, "the entry must be a JSON object"));
    };
    let reader = Reader { id, fields };
    let transport = reader.transport()?;
    let network = reader.network(&transport)?;
    let mut auto_approve = reader.strings("autoApprove")?.unwrap_or_default();
    auto_approve.extend(reader.strings("alwaysAllow")?.unwrap_or_default());
    Ok(ServerConfig {
        network,
        disabled: reader.bool("disabled")?.unwrap_or(false),
        auto_approve,
        timeout: reader.seconds("timeout")?,
        startup_timeout: reader.seconds("startupTimeout")?,
        max_concurrent_calls: reader.count("maxConcurrentCalls")?,
        restart: reader.restart()?,
        include_tools: reader.strings("includeTools")?,
        exclude_tools: reader.strings("excludeTools")?.unwrap_or_default(),
        required: reader.bool("required")?.unwrap_or(false),
        other: OtherFields(
            fields
                .iter()
                .filter(|(key, _)| !reads(&transport, key))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        ),
        transport,
    })
}

/// Whether Toolport reads `key` of an entry for `transport`: every known key, but a custom
/// transport's `command`, `args`, `env`, `cwd`, `url` and `headers`, which are its own.
fn reads(transport: &TransportConfig, key: &str) -> bool {
    KNOWN.contains(&key)
        && !(matches!(transport, TransportConfig::Custom { .. }) && TRANSPORT_KEYS.contains(&key))
}

/// The entry for `config`, written onto `original` (the object it was read from, if any): keys
/// keep their order and spelling, a field whose value did not change keeps its JSON as
/// written, and the fields Toolport does not know stay, from `original` or from `config`
/// (which wins). New keys go at the end.
pub(crate) fn write_entry(config: &ServerConfig, original: Option<&Map<String, Value>>) -> Value {
    let before = original.and_then(|fields| parse_entry("", &Value::Object(fields.clone())).ok());
    // With both spellings, the first one seen takes the names of both.
    let both_spellings = original.is_some_and(|fields| {
        fields.contains_key("autoApprove") && fields.contains_key("alwaysAllow")
    });
    let mut written = Map::new();
    let mut done: Vec<&str> = Vec::new();
    for (key, value) in original.into_iter().flatten() {
        if !reads(&config.transport, key) {
            let kept = config.other.0.get(key).unwrap_or(value);
            written.insert(key.clone(), kept.clone());
            continue;
        }
        let field = canonical(key);
        if done.contains(&field) {
            continue;
        }
        done.push(field);
        let now = render(config, field);
        let merged = both_spellings && field == "autoApprove";
        if !merged && now == before.as_ref().and_then(|before| render(before, field)) {
            written.insert(key.clone(), value.clone());
        } else if let Some(now) = now {
            written.insert(key.clone(), now);
        }
    }
    for field in KNOWN {
        let implied_type = field == "type"
            && matches!(
                config.transport,
                TransportConfig::Stdio { .. } | TransportConfig::StreamableHttp { .. }
            );
        if done.contains(&field) || field == "alwaysAllow" || implied_type {
            continue;
        }
        if let Some(value) = render(config, field) {
            written.insert(field.to_owned(), value);
        }
    }
    for (key, value) in &config.other.0 {
        if !written.contains_key(key) {
            written.insert(key.clone(), value.clone());
        }
    }
    Value::Object(written)
}

/// The JSON of `config`'s `field`, or `None` when the field is at its default (or does not
/// apply to the server's transport).
fn render(config: &ServerConfig, field: &str) -> Option<Value> {
    let strings = |names: &[String]| (!names.is_empty()).then(|| json!(names));
    let secrets = |pairs: &[(String, Secret)]| {
        let object: Map<String, Value> = pairs
            .iter()
            .map(|(name, value)| (name.clone(), Value::from(value.expose())))
            .collect();
        (!object.is_empty()).then_some(Value::Object(object))
    };
    let flag = |set: bool| set.then_some(Value::Bool(true));
    let seconds = |duration: Option<Duration>| duration.map(seconds_json);
    match (&config.transport, field) {
        (transport, "type") => Some(Value::from(transport.kind())),
        (TransportConfig::Stdio { command, .. }, "command") => Some(Value::from(command.as_str())),
        (TransportConfig::Stdio { args, .. }, "args") => strings(args),
        (TransportConfig::Stdio { env, .. }, "env") => secrets(env),
        (TransportConfig::Stdio { cwd, .. }, "cwd") => cwd.as_deref().map(Value::from),
        (TransportConfig::StreamableHttp { url, .. } | TransportConfig::Sse { url, .. }, "url") => {
            Some(Value::from(url.as_str()))
        }
        (
            TransportConfig::StreamableHttp { headers, .. } | TransportConfig::Sse { headers, .. },
            "headers",
        ) => secrets(headers),
        (_, "proxy") => config
            .network
            .proxy
            .as_ref()
            .map(|p| Value::from(p.expose())),
        (_, "caFiles") => strings(&config.network.ca_files),
        (_, "clientCert") => config.network.client_cert.as_deref().map(Value::from),
        (_, "clientKey") => config.network.client_key.as_deref().map(Value::from),
        (_, "disabled") => flag(config.disabled),
        (_, "autoApprove") => strings(&config.auto_approve),
        (_, "timeout") => seconds(config.timeout),
        (_, "startupTimeout") => seconds(config.startup_timeout),
        (_, "maxConcurrentCalls") => config.max_concurrent_calls.map(|n| Value::from(n.get())),
        (_, "restart") => restart_json(&config.restart),
        (_, "includeTools") => config.include_tools.as_ref().map(|names| json!(names)),
        (_, "excludeTools") => strings(&config.exclude_tools),
        (_, "required") => flag(config.required),
        _ => None,
    }
}

/// A duration as a number of seconds: whole when it is.
fn seconds_json(duration: Duration) -> Value {
    if duration.subsec_nanos() == 0 {
        Value::from(duration.as_secs())
    } else {
        Value::from(duration.as_secs_f64())
    }
}

/// The `restart` field of `policy`: `"never"`, the keys that differ from the default, or
/// `None` for the default.
fn restart_json(policy: &RestartPolicy) -> Option<Value> {
    if policy.max_attempts == 0 {
        return Some(Value::from("never"));
    }
    let default = RestartPolicy::default();
    let millis =
        |duration: Duration| Value::from(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX));
    let mut object = Map::new();
    if policy.max_attempts != default.max_attempts {
        object.insert("maxAttempts".into(), Value::from(policy.max_attempts));
    }
    if policy.backoff != default.backoff {
        object.insert("backoffMs".into(), millis(policy.backoff));
    }
    if policy.max_backoff != default.max_backoff {
        object.insert("maxBackoffMs".into(), millis(policy.max_backoff));
    }
    if policy.stable_after != default.stable_after {
        object.insert("stableAfterMs".into(), millis(policy.stable_after));
    }
    (!object.is_empty()).then_some(Value::Object(object))
}

/// Whether `kind` names one of Toolport's own transports, in any of the spellings clients
/// write.
fn is_standard(kind: &str) -> bool {
    matches!(
        kind,
        "stdio" | "sse" | "http" | "streamable-http" | "streamableHttp" | "streamable_http"
    )
}

/// Reads the fields of one entry, with errors that name the server and the field.
struct Reader<'a> {
    id: &'a str,
    fields: &'a Map<String, Value>,
}

impl Reader<'_> {
    fn error(&self, field: &str, problem: &str) -> ConfigError {
        ConfigError::entry(self.id, format!("`{field}` {problem}"))
    }

    /// How to reach the server: a `type` Toolport does not know is a custom transport, whose
    /// fields are its factory's to read.
    fn transport(&self) -> Result<TransportConfig, ConfigError> {
        let kind = self.string("type")?;
        if let Some(custom) = kind.as_deref().filter(|kind| !is_standard(kind)) {
            return Ok(TransportConfig::Custom {
                kind: custom.to_owned(),
            });
        }
        let command = self.string("command")?;
        let url = self.string("url")?;
        let kind = match (kind.as_deref(), &command, &url) {
            (Some("stdio"), ..) => "stdio",
            (Some("sse"), ..) => "sse",
            (Some(_), ..) => "http",
            (None, Some(_), None) => "stdio",
            (None, None, Some(_)) => "http",
            (None, Some(_), Some(_)) => {
                return Err(ConfigError::entry(
                    self.id,
                    "has both `command` and `url`; give `type` to say which, or drop one",
                ));
            }
            (None, None, None) => {
                return Err(ConfigError::entry(
                    self.id,
                    "needs `command` (a server started over stdio) or `url` (a remote server)",
                ));
            }
        };
        if kind == "stdio" {
            if url.is_some() || self.fields.contains_key("headers") {
                return Err(ConfigError::entry(
                    self.id,
                    "is a stdio server, which takes no `url` or `headers`",
                ));
            }
            let command = command
                .filter(|command| !command.trim().is_empty())
                .ok_or_else(|| self.error("command", "is missing or empty"))?;
            return Ok(TransportConfig::Stdio {
                command,
                args: self.strings("args")?.unwrap_or_default(),
                env: self.secrets("env")?,
                cwd: self.string("cwd")?,
            });
        }
        if command.is_some()
            || ["args", "env", "cwd"]
                .iter()
                .any(|key| self.fields.contains_key(*key))
        {
            return Err(ConfigError::entry(
                self.id,
                "is a remote server, which takes no `command`, `args`, `env` or `cwd`",
            ));
        }
        let url = url
            .filter(|url| !url.trim().is_empty())
            .ok_or_else(|| self.error("url", "is missing or empty"))?;
        let headers = self.secrets("headers")?;
        Ok(if kind == "sse" {
            TransportConfig::Sse { url, headers }
        } else {
            TransportConfig::StreamableHttp { url, headers }
        })
    }

    /// `proxy`, `caFiles`, `clientCert` and `clientKey`: for a remote server only, and the
    /// certificate with its key.
    fn network(&self, transport: &TransportConfig) -> Result<NetworkConfig, ConfigError> {
        let network = NetworkConfig {
            proxy: self.string("proxy")?.map(Secret::new),
            ca_files: self.strings("caFiles")?.unwrap_or_default(),
            client_cert: self.string("clientCert")?,
            client_key: self.string("clientKey")?,
        };
        if matches!(transport, TransportConfig::Stdio { .. }) && !network.is_default() {
            return Err(ConfigError::entry(
                self.id,
                "is a stdio server, which takes no `proxy`, `caFiles`, `clientCert` or `clientKey`",
            ));
        }
        match (&network.client_cert, &network.client_key) {
            (Some(_), None) => Err(self.error("clientCert", "needs `clientKey`, its private key")),
            (None, Some(_)) => Err(self.error("clientKey", "needs `clientCert`, its certificate")),
            _ => Ok(network),
        }
    }

    fn string(&self, field: &str) -> Result<Option<String>, ConfigError> {
        match self.fields.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(value)) => Ok(Some(value.clone())),
            Some(_) => Err(self.error(field, "must be a string")),
        }
    }

    fn bool(&self, field: &str) -> Result<Option<bool>, ConfigError> {
        match self.fields.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(value)) => Ok(Some(*value)),
            Some(_) => Err(self.error(field, "must be true or false")),
        }
    }

    fn strings(&self, field: &str) -> Result<Option<Vec<String>>, ConfigError> {
        let items = match self.fields.get(field) {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Array(items)) => items,
            Some(_) => return Err(self.error(field, "must be an array of strings")),
        };
        items
            .iter()
            .map(|item| item.as_str().map(str::to_owned))
            .collect::<Option<Vec<String>>>()
            .map(Some)
            .ok_or_else(|| self.error(field, "must be an array of strings"))
    }

    /// An object of string values, such as `env` or `headers`. The error never quotes a value.
    fn secrets(&self, field: &str) -> Result<Vec<(String, Secret)>, ConfigError> {
        let object = match self.fields.get(field) {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Object(object)) => object,
            Some(_) => return Err(self.error(field, "must be an object of string values")),
        };
        object
            .iter()
            .map(|(name, value)| match value {
                Value::String(value) => Ok((name.clone(), Secret::new(value.as_str()))),
                _ => Err(self.error(&format!("{field}.{name}"), "must be a string")),
            })
            .collect()
    }

    fn seconds(&self, field: &str) -> Result<Option<Duration>, ConfigError> {
        match self.fields.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(number)) => number
                .as_f64()
                .filter(|seconds| *seconds > 0.0 && *seconds <= 86_400.0)
                .map(|seconds| Some(Duration::from_secs_f64(seconds)))
                .ok_or_else(|| {
                    self.error(
                        field,
                        "must be a number of seconds, above 0 and at most a day",
                    )
                }),
            Some(_) => Err(self.error(field, "must be a number of seconds")),
        }
    }

    /// A count of at least 1, such as `maxConcurrentCalls`.
    fn count(&self, field: &str) -> Result<Option<NonZeroUsize>, ConfigError> {
        match self.fields.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value
                .as_u64()
                .and_then(|count| usize::try_from(count).ok())
                .and_then(NonZeroUsize::new)
                .map(Some)
                .ok_or_else(|| self.error(field, "must be a whole number, at least 1")),
        }
    }

    fn restart(&self) -> Result<RestartPolicy, ConfigError> {
        let object = match self.fields.get("restart") {
            None | Some(Value::Null) => return Ok(RestartPolicy::default()),
            Some(Value::String(never)) if never == "never" => return Ok(RestartPolicy::NEVER),
            Some(Value::Object(object)) => object,
            Some(_) => {
                return Err(self.error(
                    "restart",
                    "must be \"never\" or an object such as {\"maxAttempts\": 5}",
                ));
            }
        };
        if let Some(key) = object
            .keys()
            .find(|key| !RESTART_KEYS.contains(&key.as_str()))
        {
            return Err(self.error(
                &format!("restart.{key}"),
                "is not a restart setting (maxAttempts, backoffMs, maxBackoffMs, stableAfterMs)",
            ));
        }
        let number = |key: &str| -> Result<Option<u64>, ConfigError> {
            match object.get(key) {
                None => Ok(None),
                Some(value) => value
                    .as_u64()
                    .map(Some)
                    .ok_or_else(|| self.error(&format!("restart.{key}"), "must be a whole number")),
            }
        };
        let mut policy = RestartPolicy::default();
        if let Some(attempts) = number("maxAttempts")? {
            policy.max_attempts = u32::try_from(attempts)
                .map_err(|_| self.error("restart.maxAttempts", "is too large"))?;
        }
        let backoff = number("backoffMs")?.map_or(policy.backoff, Duration::from_millis);
        let max_backoff = number("maxBackoffMs")?.map_or(policy.max_backoff, Duration::from_millis);
        policy = policy.with_backoff(backoff, max_backoff);
        if let Some(stable) = number("stableAfterMs")? {
            policy.stable_after = Duration::from_millis(stable);
        }
        Ok(policy)
    }
}
