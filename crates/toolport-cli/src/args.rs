//! The command line, as clap parses it.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};
use toolport::model::ProtocolVersion;
use toolport::schema::Provider;
use toolport::{Mapping, ProtocolChoice, Timeouts};

/// List and call the tools of an MCP server, and read its resources and prompts.
///
/// SERVER is `-- <COMMAND> [ARGS...]` for a server started over stdio, `--url <URL>` for a remote
/// one, `--config <mcp.json> [--server <ID>]` for the servers of a configuration file, or nothing
/// for the built-in demo task tracker.
#[derive(Debug, Parser)]
#[command(name = "toolport", version, about)]
pub(crate) struct Cli {
    /// Bound, in milliseconds, on connecting, initializing and each request [env: TOOLPORT_TIMEOUT_MS].
    #[arg(long, global = true, value_name = "N")]
    pub(crate) timeout_ms: Option<u64>,
    /// Log what happens (including the server's stderr) to stderr.
    #[arg(long, short, global = true)]
    pub(crate) verbose: bool,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// List the server's tools.
    Tools(ToolsArgs),
    /// Rank the server's tools for a need in natural words, as an agent's tool search does,
    /// and print the best: name, server, score and one line of description.
    ///
    /// The need may use other words than the tool's ("erase what you know about Acme" finds
    /// `delete_entities`); naming a server ("on GitHub") favours its tools.
    Search(SearchArgs),
    /// Call one tool.
    ///
    /// Its arguments are one JSON object, or `key=value` pairs as HTTPie takes them: each value
    /// is typed by the tool's input schema (`integer`, `number` and `boolean` properties are
    /// parsed as such, anything else stays a string), and `key:=<json>` passes raw JSON of any
    /// type.
    #[command(after_help = CALL_EXAMPLES)]
    Call(CallArgs),
    /// Call tools read from stdin, one `<tool> [json-args]` per line (blank and `#` lines are
    /// skipped), all in one session.
    ///
    /// Each line is a tool's name, then optionally its arguments, as `call` takes them: one JSON
    /// object (`add_task {"title": "Tag v1.2"}`) or `key=value` and `key:=<json>` pairs, quoted
    /// as in a shell (`add_task title="Tag v1.2" priority=high`). The calls run in order on one
    /// session, so the server keeps its state between them, and each prints one JSON line: a call
    /// the tool answered as `{"tool", "is_error", "result"}` (`is_error` is the tool's own
    /// `isError`), and a line that could not be called (bad arguments, an unknown tool, a failed
    /// or timed-out call) as `{"tool", "error"}`.
    ///
    /// Every line whose call failed counts in the summary on stderr. Exit status: 0 if every
    /// call succeeded; 2 if the only failures were tool errors; 1 if any line could not be
    /// called (an unknown tool, bad JSON, a failed or timed-out call).
    Batch(BatchArgs),
    /// List the server's resources (`URI  name  MIME`), or with `--templates` its resource
    /// templates.
    Resources(ResourcesArgs),
    /// Print one resource's contents: text as it is, binary contents as one line saying their
    /// size (`--json` prints the whole result, base64 included).
    Read(ReadArgs),
    /// List the server's prompts with their arguments (`?` marks an optional one), or with
    /// `--get NAME [ARGS...]` print one prompt's messages, filled in.
    Prompts(PromptsArgs),
    /// Print the completions, one a line, for an argument of a prompt (`--prompt NAME`) or of a
    /// resource template (`--template URI`), given what is typed of it so far.
    Complete(CompleteArgs),
    /// Pin the server's tools: write each one's name, description and input and output
    /// schemas to a lock file.
    Lock(LockArgs),
    /// Compare the server's tools with a lock file, and exit 1 listing every tool added,
    /// removed or changed, and what changed: a description, a schema's properties added,
    /// removed or retyped, or required or not.
    ///
    /// Without `--allow`, the tools compared are those of the allowlist the lock was made with,
    /// if any, else all. A tool the allowlist names that the server no longer lists is removed.
    Check(CheckArgs),
}

/// Shown after `toolport call --help`.
const CALL_EXAMPLES: &str = r#"Examples:
  toolport call add_task title="Tag v1.2" priority=high
  toolport call add_task '{"title": "Tag v1.2", "priority": "high"}'
  toolport call add a=2 b=3 --url http://127.0.0.1:3001/mcp
  toolport call search query=rust exact:=true tags:='["cli", "mcp"]' -- ./my-server"#;

/// Which server to talk to.
#[derive(Debug, Args)]
pub(crate) struct ServerArgs {
    /// A server to start as a child process and speak to over stdio; always last, after `--`.
    /// It gets a minimal environment (HOME, LOGNAME, PATH, SHELL, TERM, USER) and what `-e`
    /// and `--env-pass` give it.
    #[arg(last = true, num_args = 1.., value_name = "COMMAND", conflicts_with_all = ["url", "config"])]
    pub(crate) command: Vec<String>,
    /// An environment variable for the stdio server, as NAME=VALUE (repeatable).
    #[arg(short = 'e', long = "env", value_name = "NAME=VALUE", value_parser = env_assignment, requires = "command")]
    pub(crate) env: Vec<(String, String)>,
    /// A variable of this environment to pass on to the stdio server (repeatable); one that is
    /// not set is an error.
    #[arg(long = "env-pass", value_name = "NAME", requires = "command")]
    pub(crate) env_pass: Vec<String>,
    /// An `mcp.json` (the `mcpServers` form of Claude, Cursor and Cline, or VS Code's
    /// `servers`): every enabled server, their tools together, names two servers share as
    /// `{server_id}__{tool}`.
    #[arg(long, value_name = "FILE", conflicts_with = "url")]
    pub(crate) config: Option<PathBuf>,
    /// Only this server of `--config`.
    #[arg(long = "server", value_name = "ID", requires = "config")]
    pub(crate) server_id: Option<String>,
    /// A remote server's URL (use 127.0.0.1 rather than localhost for local servers).
    #[arg(long, value_name = "URL")]
    pub(crate) url: Option<String>,
    /// How to speak to the URL.
    #[arg(long, value_enum, default_value_t = Transport::StreamableHttp, requires = "url")]
    pub(crate) transport: Transport,
    /// A header for every request, as 'Name: value' (repeatable).
    #[arg(
        short = 'H',
        long = "header",
        value_name = "'Name: value'",
        requires = "url"
    )]
    pub(crate) headers: Vec<String>,
    /// Send `Authorization: Bearer <token>` with the token read from this environment variable.
    #[arg(long, value_name = "VAR", requires = "url")]
    pub(crate) bearer_env: Option<String>,
    /// Send every request through this `http://` proxy (`http://user:password@host:port`; https
    /// through `CONNECT`), local servers included, instead of `HTTPS_PROXY`, `HTTP_PROXY` or
    /// `ALL_PROXY`. `NO_PROXY` still applies. Prefer the variables for a password.
    #[arg(
        long,
        value_name = "URL",
        requires = "url",
        conflicts_with = "no_proxy"
    )]
    pub(crate) proxy: Option<String>,
    /// Go straight to the server, whatever `HTTPS_PROXY`, `HTTP_PROXY` and `ALL_PROXY` say.
    #[arg(long, requires = "url")]
    pub(crate) no_proxy: bool,
    /// Trust the certificate authorities in this PEM file besides the system's (repeatable).
    #[arg(long = "ca-file", value_name = "FILE", requires = "url")]
    pub(crate) ca_files: Vec<PathBuf>,
    /// Present this client certificate chain (PEM, leaf first) to a server that asks for one
    /// (mutual TLS); needs `--client-key`.
    #[arg(long, value_name = "FILE", requires_all = ["url", "client_key"])]
    pub(crate) client_cert: Option<PathBuf>,
    /// The private key (PEM) of `--client-cert`.
    #[arg(long, value_name = "FILE", requires = "client_cert")]
    pub(crate) client_key: Option<PathBuf>,
    /// How to authorize with the URL's server: `oauth` runs the MCP authorization flow in the
    /// browser (or prints its URL) and keeps the tokens per server URL in `--token-file`;
    /// `client-credentials` gets a token for the client itself (`--client-id` and
    /// `--client-secret-env`), from `--issuer`'s token endpoint or `--token-url`.
    #[arg(long, value_enum, default_value_t = AuthMode::None, requires = "url")]
    pub(crate) auth: AuthMode,
    /// A client ID registered with the authorization server in advance (otherwise the client
    /// registers itself, or names its metadata document).
    #[arg(long, value_name = "ID", requires = "url")]
    pub(crate) client_id: Option<String>,
    /// The environment variable holding the client's secret (never the secret itself).
    #[arg(long, value_name = "VAR", requires = "client_id")]
    pub(crate) client_secret_env: Option<String>,
    /// The authorization server's token endpoint, for `--auth client-credentials` without
    /// discovery.
    #[arg(long, value_name = "URL", requires = "url")]
    pub(crate) token_url: Option<String>,
    /// The authorization server's issuer (`https://auth.example.com`): the only one the
    /// client's secret is sent to, and the server must name it. Needed with
    /// `--client-secret-env` (for `client-credentials`, unless `--token-url` is given).
    #[arg(long, value_name = "URL", requires = "url")]
    pub(crate) issuer: Option<String>,
    /// A scope to ask for, instead of the server's (repeatable).
    #[arg(long = "scope", value_name = "SCOPE", requires = "url")]
    pub(crate) scopes: Vec<String>,
    /// Where `--auth oauth` keeps tokens [env: TOOLPORT_TOKEN_FILE; default:
    /// ~/.config/toolport/tokens.json].
    #[arg(long, value_name = "FILE", requires = "url")]
    pub(crate) token_file: Option<PathBuf>,
    /// The MCP version to speak, or `auto` (the default) to prefer 2026-07-28 and fall back to
    /// 2025-11-25.
    /// `--verbose` shows the one the connection settled on.
    #[arg(long, value_enum, default_value_t = Protocol::Auto, value_name = "VERSION")]
    pub(crate) protocol: Protocol,
}

/// `NAME=VALUE`, as `-e` takes it.
fn env_assignment(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => Err(format!(
            "`{text}` is not NAME=VALUE (to pass a variable of this environment, use --env-pass NAME)"
        )),
    }
}

/// How the command authorizes with a remote server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum AuthMode {
    /// No authorization beyond `-H` and `--bearer-env`.
    None,
    /// The MCP authorization flow (OAuth 2.1 with PKCE) in the user's browser.
    Oauth,
    /// The OAuth client-credentials grant: a token for the client itself, no user involved.
    ClientCredentials,
}

/// The protocol versions the command speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Protocol {
    /// Starts with the `initialize` handshake.
    #[value(name = "2025-11-25")]
    V2025_11_25,
    /// Starts with `server/discover`, and names the version in every request.
    #[value(name = "2026-07-28")]
    V2026_07_28,
    /// Probes with `server/discover`, and falls back to `initialize` for an older server.
    #[value(name = "auto")]
    Auto,
}

impl Protocol {
    /// The choice, as the session takes it.
    pub(crate) fn choice(self) -> ProtocolChoice {
        match self {
            Self::V2025_11_25 => ProtocolChoice::Pinned(ProtocolVersion::V_2025_11_25),
            Self::V2026_07_28 => ProtocolChoice::Pinned(ProtocolVersion::V_2026_07_28),
            Self::Auto => ProtocolChoice::Negotiate,
        }
    }
}

/// The remote transports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Transport {
    /// Streamable HTTP, on every protocol version `--protocol` takes: for anything shared.
    StreamableHttp,
    /// Legacy HTTP+SSE (MCP 2024-11-05): for servers that have not moved on.
    Sse,
}

#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// Print a JSON array of the tools, their fields as the server sent them.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print a JSON array of the tools' function declarations for a model provider: `gemini`,
    /// `openai` (strict where the schema allows) or `anthropic`, their schemas adapted to it.
    /// What the adapter dropped goes to stderr, one line each.
    #[arg(long, value_name = "PROVIDER")]
    pub(crate) provider: Option<Provider>,
    /// Only these tools (comma-separated); a name the server lacks is an error.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub(crate) allow: Vec<String>,
    /// Offer the tools as an agent with tool search does on a conversation's first turn: the
    /// pinned tools (`--pin`) and the search tool, which finds the others.
    #[arg(long, conflicts_with = "allow")]
    pub(crate) search: bool,
    /// With `--search`, the tools offered on every turn without a search (comma-separated); a
    /// name the server lacks is an error.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAME,...",
        requires = "search"
    )]
    pub(crate) pin: Vec<String>,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    /// The need, in natural words.
    pub(crate) query: String,
    /// Print a JSON array, best first, of `{"name", "server", "score"}` (`server` is the
    /// server's id in a fleet, null for one server).
    #[arg(long)]
    pub(crate) json: bool,
    /// How many tools to print, at most 20.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=20))]
    pub(crate) limit: u8,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct CallArgs {
    /// The tool to call.
    pub(crate) tool: String,
    /// Its arguments: one JSON object, or `key=value` (typed by the input schema) and
    /// `key:=<json>` pairs. None: `{}`.
    #[arg(value_name = "ARGS")]
    pub(crate) arguments: Vec<String>,
    /// Print the mapped value as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print the `CallToolResult` exactly as received.
    #[arg(long, conflicts_with = "json")]
    pub(crate) raw: bool,
    /// Write the result's images and audio to files in DIR (`<tool>-<n>.<ext>`, decoded from
    /// base64), and print their paths.
    #[arg(long, value_name = "DIR", conflicts_with = "raw")]
    pub(crate) save_media: Option<PathBuf>,
    /// How the result is mapped for a model.
    #[arg(long, default_value = "rich", value_name = "rich|adk-java|raw", value_parser = parse_mapping)]
    pub(crate) mapping: Mapping,
    /// Print each progress report of the call on stderr, as
    /// `toolport: progress 2/5: <message>`.
    #[arg(long)]
    pub(crate) progress: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct BatchArgs {
    /// Accepted for symmetry: batch output is always one JSON object per line.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ResourcesArgs {
    /// List the resource templates instead.
    #[arg(long)]
    pub(crate) templates: bool,
    /// Print a JSON array, the fields as the server sent them.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ReadArgs {
    /// The resource's URI.
    pub(crate) uri: String,
    /// Print the `ReadResourceResult` as received.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct PromptsArgs {
    /// Print this prompt's messages instead of the list.
    #[arg(long, value_name = "NAME")]
    pub(crate) get: Option<String>,
    /// The prompt's arguments (with `--get`): one JSON object of strings, or `key=value` pairs.
    #[arg(value_name = "ARGS", requires = "get")]
    pub(crate) arguments: Vec<String>,
    /// Print JSON, the fields as the server sent them.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct CompleteArgs {
    /// Complete an argument of this prompt.
    #[arg(long, value_name = "NAME", conflicts_with = "template")]
    pub(crate) prompt: Option<String>,
    /// Complete an argument of the resource template with this URI template.
    #[arg(long, value_name = "URI")]
    pub(crate) template: Option<String>,
    /// The argument to complete.
    pub(crate) argument: String,
    /// What is typed of it so far.
    #[arg(default_value = "")]
    pub(crate) value: String,
    /// The value of another argument, as `NAME=VALUE` (repeatable).
    #[arg(long = "context", value_name = "NAME=VALUE")]
    pub(crate) context: Vec<String>,
    /// Print the completion as JSON (`values`, `total`, `hasMore`).
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct LockArgs {
    /// Where to write the lock.
    #[arg(long, value_name = "FILE", default_value = "toolport.lock")]
    pub(crate) out: PathBuf,
    /// Only these tools (comma-separated); a name the server lacks is an error.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub(crate) allow: Vec<String>,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The lock to compare with.
    #[arg(long, value_name = "FILE", default_value = "toolport.lock")]
    pub(crate) lock: PathBuf,
    /// Only these tools (comma-separated), instead of the lock's allowlist; the lock's other
    /// tools are not compared.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub(crate) allow: Vec<String>,
    #[command(flatten)]
    pub(crate) server: ServerArgs,
}

fn parse_mapping(name: &str) -> Result<Mapping, String> {
    name.parse()
        .map_err(|error: toolport::MappingError| error.to_string())
}

/// The bounds from `--timeout-ms` or `TOOLPORT_TIMEOUT_MS`, else the library defaults.
pub(crate) fn timeouts(flag: Option<u64>) -> anyhow::Result<Timeouts> {
    let millis = match flag {
        Some(millis) => Some(millis),
        None => match std::env::var("TOOLPORT_TIMEOUT_MS") {
            Ok(value) => Some(value.trim().parse::<u64>().with_context(|| {
                format!("TOOLPORT_TIMEOUT_MS must be a number of milliseconds, got `{value}`")
            })?),
            Err(_) => None,
        },
    };
    match millis {
        Some(0) => anyhow::bail!("the timeout must be at least 1 ms"),
        Some(millis) => Ok(Timeouts::uniform(Duration::from_millis(millis))),
        None => Ok(Timeouts::default()),
    }
}
