//! [`McpToolsetBuilder`]: every setting of a toolset, and the way to the session's.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::CallToolResult;
use toolport_core::BoxError;
use toolport_session::{McpSession, SessionBuilder};

use crate::LoadResourceTool;
use crate::adaptation::Adaptation;
use crate::budget::Budgets;
use crate::call_path::{CallPath, Layers};
use crate::names::ToolNamer;
use crate::schema::{Provider, SchemaAdapter};
use crate::tool_cache::{CacheKey, ToolListCache, whole_context};
use crate::{
    DescriptionPolicy, Idempotency, Mapping, McpToolset, OutputBudget, ReadonlyContext,
    ResultMapper, SchemaChecks, ToolCall, ToolFilter, ToolPredicate, ToolService, ToolSession,
    ToolsetError,
};

/// Builds an [`McpToolset`]. The settings of the session it makes are set on that session's
/// builder, reached with [`session`](Self::session).
#[must_use]
pub struct McpToolsetBuilder<S: ToolSession = McpSession> {
    session: SessionSource<S>,
    /// Whether session settings were given for a shared session, which
    /// [`build`](Self::build) refuses.
    session_settings_unapplied: bool,
    filter: ToolFilter,
    mapper: Arc<dyn ResultMapper>,
    budgets: Budgets,
    idempotent: HashMap<String, Idempotency>,
    strict: bool,
    replay_opt_in: bool,
    schema_checks: SchemaChecks,
    adaptation: Adaptation,
    list_every_turn: bool,
    load_resource_tool: Option<String>,
    cache_key: CacheKey,
    layers: Layers,
}

impl<S: ToolSession> std::fmt::Debug for McpToolsetBuilder<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolsetBuilder")
            .field("session", &self.session)
            .field(
                "session_settings_unapplied",
                &self.session_settings_unapplied,
            )
            .field("filter", &self.filter)
            .field("mapper", &self.mapper)
            .field("budgets", &self.budgets)
            .field("strict", &self.strict)
            .field("replay_opt_in", &self.replay_opt_in)
            .field("schema_checks", &self.schema_checks)
            .field("adaptation", &self.adaptation)
            .field("idempotent", &self.idempotent)
            .field("list_every_turn", &self.list_every_turn)
            .field("load_resource_tool", &self.load_resource_tool)
            .field("layers", &self.layers)
            .finish_non_exhaustive()
    }
}

/// Where a toolset's session comes from.
#[derive(Debug)]
pub(crate) enum SessionSource<S> {
    /// A new [`McpSession`], still being configured (boxed: a builder is much larger than a
    /// handle), and the function that builds it: `SessionBuilder::build`, which makes this
    /// variant possible only when `S` is `McpSession`.
    Build {
        builder: Box<SessionBuilder>,
        build: fn(SessionBuilder) -> S,
    },
    /// A session someone else also holds, or a fake.
    Existing(S),
}

impl McpToolsetBuilder {
    /// Configures the session this toolset makes: `configure` receives its
    /// [`SessionBuilder`] (timeouts, retries, elicitation, tasks, client info, protocol
    /// version) and returns it. Called again, it configures the same builder further.
    ///
    /// ```
    /// # use toolport_tools::McpToolset;
    /// # use toolport_core::Timeouts;
    /// # fn toolset(connector: impl toolport_core::Connector) -> toolport_tools::McpToolsetBuilder {
    /// McpToolset::builder(connector).session(|session| session.timeouts(Timeouts::default()))
    /// # }
    /// ```
    ///
    /// A toolset built [`with_session`](McpToolset::with_session) shares a session built
    /// already, so there [`build`](Self::build) refuses this setting rather than drop it.
    pub fn session(mut self, configure: impl FnOnce(SessionBuilder) -> SessionBuilder) -> Self {
        match self.session {
            SessionSource::Build { builder, build } => {
                self.session = SessionSource::Build {
                    builder: Box::new(configure(*builder)),
                    build,
                };
            }
            SessionSource::Existing(_) => self.session_settings_unapplied = true,
        }
        self
    }
}

impl<S: ToolSession> McpToolsetBuilder<S> {
    pub(crate) fn new(session: SessionSource<S>) -> Self {
        Self {
            session,
            session_settings_unapplied: false,
            filter: ToolFilter::All,
            mapper: Arc::new(Mapping::default()),
            budgets: Budgets::default(),
            idempotent: HashMap::new(),
            strict: false,
            replay_opt_in: false,
            schema_checks: SchemaChecks::default(),
            adaptation: Adaptation::default(),
            list_every_turn: false,
            load_resource_tool: None,
            cache_key: Arc::new(whole_context),
            layers: Layers::default(),
        }
    }

    /// Offers only the named tools.
    pub fn allow<I, N>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = N>,
        N: Into<String>,
    {
        self.filter = ToolFilter::Allow(names.into_iter().map(Into::into).collect());
        self
    }

    /// Offers the tools `predicate` allows for each caller.
    ///
    /// ```
    /// use toolport_tools::{McpToolset, ReadonlyContext, ToolDefinition};
    ///
    /// // Hide write tools from read-only users.
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector()).filter(
    ///     |tool: &ToolDefinition, context: Option<&ReadonlyContext>| {
    ///         let viewer = context.is_some_and(|c| c.get("role").is_some_and(|r| r == "viewer"));
    ///         !viewer || tool.annotations.as_ref().is_some_and(|a| a.read_only_hint == Some(true))
    ///     },
    /// );
    /// # drop(builder);
    /// ```
    pub fn filter(mut self, predicate: impl ToolPredicate + 'static) -> Self {
        self.filter = ToolFilter::Predicate(Arc::new(predicate));
        self
    }

    /// With an allowlist: fail [`build`](Self::build) when a listed name is missing on the
    /// server. This connects at build time.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// How results are shown to the model: a [`Mapping`] preset ([`Mapping::Rich`] by
    /// default) or a [`ResultMapper`] of your own.
    pub fn mapping(mut self, mapper: impl ResultMapper + 'static) -> Self {
        self.mapper = Arc::new(mapper);
        self
    }

    /// Bounds what the model reads of each tool's result, for every tool without a budget of
    /// its own (see [`tool_output_budget`](Self::tool_output_budget)). Default: no bound. The
    /// application still gets the whole result, in [`ToolOutput::uncut_value`] and
    /// [`ToolOutput::result`](crate::ToolOutput::result).
    ///
    /// [`ToolOutput::uncut_value`]: crate::ToolOutput::uncut_value
    pub fn output_budget(mut self, budget: OutputBudget) -> Self {
        self.budgets.set_toolset(budget);
        self
    }

    /// Bounds what the model reads of the results of the tool the server names `name`; this
    /// beats the toolset's [`output_budget`](Self::output_budget).
    /// [`OutputBudget::unlimited`] exempts the tool.
    ///
    /// ```
    /// use toolport_tools::{McpToolset, OutputBudget};
    ///
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector())
    ///     .output_budget(OutputBudget::tokens(2_000))
    ///     .tool_output_budget("list_tasks", OutputBudget::bytes(64 * 1024));
    /// # drop(builder);
    /// ```
    pub fn tool_output_budget(mut self, name: impl Into<String>, budget: OutputBudget) -> Self {
        self.budgets.set_tool(name.into(), budget);
        self
    }

    /// Gives the tool the server names `name` an idempotency key ([`Idempotency`]): each call
    /// carries one, and a call that timed out is sent again with it, so a server that honours
    /// the key does its work once.
    pub fn idempotent(mut self, name: impl Into<String>, idempotency: Idempotency) -> Self {
        self.idempotent.insert(name.into(), idempotency);
        self
    }

    /// Replays any call lost with the connection, not only read-only or idempotent ones. Opt in
    /// only when every tool of the server is safe to run twice.
    pub fn replay_all_calls(mut self, replay: bool) -> Self {
        self.replay_opt_in = replay;
        self
    }

    /// Fits the tools to a model provider: names by its rule (for Gemini,
    /// [`NameRule::gemini`](crate::names::NameRule::gemini); for the others the default
    /// 64-character rule) and input schemas by its adapter. Each tool's declaration then has
    /// the model-facing name and the adapted schema, [`McpTool::function_declaration`](crate::McpTool::function_declaration) gives the
    /// provider's JSON, and a call goes to the server's name with the `null`s strict mode adds
    /// taken out. Names and schemas are fitted once per tool list, so a warm turn adapts
    /// nothing. Allowlists and predicates still see the server's names.
    pub fn provider(mut self, provider: Provider) -> Self {
        self.adaptation = self.adaptation.with_provider(provider);
        self
    }

    /// How the servers' tool descriptions reach the model: capped, fenced as untrusted text,
    /// or as they are (the default). See [`DescriptionPolicy`].
    pub fn descriptions(mut self, policy: DescriptionPolicy) -> Self {
        self.adaptation = self.adaptation.with_descriptions(policy);
        self
    }

    /// Names the tools with `namer` (a rule, and a prefix such as the server's id), instead of
    /// the server's names or the [`provider`](Self::provider)'s rule.
    pub fn tool_namer(mut self, namer: ToolNamer) -> Self {
        self.adaptation = self.adaptation.with_namer(namer);
        self
    }

    /// Adapts the input schemas with `adapter`, instead of leaving them as the server wrote
    /// them or the [`provider`](Self::provider)'s adapter.
    pub fn schema_adapter(mut self, adapter: Arc<dyn SchemaAdapter>) -> Self {
        self.adaptation = self.adaptation.with_schema_adapter(adapter);
        self
    }

    /// Which of each tool's schemas its calls are checked against: by default the arguments
    /// before they are sent (a mismatch never reaches the server) and the structured content
    /// of the result. Needs the `jsonschema` feature; without it, nothing is checked.
    pub fn schema_checks(mut self, checks: SchemaChecks) -> Self {
        self.schema_checks = checks;
        self
    }

    /// Offers a [`LoadResourceTool`] named `name` ([`LoadResourceTool::NAME`] for the usual
    /// `load_resource`) beside the server's tools, when the server declares resources, so that
    /// the model can read them. It is in [`tools`](McpToolset::tools) (and so in
    /// [`Toolset::tools`](crate::Toolset::tools)), not in
    /// [`mcp_tools`](McpToolset::mcp_tools), which holds the server's own; the allow and deny
    /// lists do not apply to it, and it keeps its name under a provider's name rules.
    pub fn load_resource_tool(mut self, name: impl Into<String>) -> Self {
        self.load_resource_tool = Some(name.into());
        self
    }

    /// Lists tools on every [`tools`](McpToolset::tools) call instead of caching, as ADK does.
    pub fn list_every_turn(mut self, list_every_turn: bool) -> Self {
        self.list_every_turn = list_every_turn;
        self
    }

    /// Which callers may share a cached tool list: those whose contexts `key` maps to the same
    /// string. By default the whole context is the key, so callers who might see different
    /// tools (because a header provider sends each one's identity, say) never see each
    /// other's list. Key on the identity alone (`|c| user_id_of(c)`) to share a list across a
    /// user's requests, or return one constant to share a single list when every caller sees
    /// the same tools. A list the server calls `public` (2026-07-28's `cacheScope`) is shared
    /// by every caller whatever the key.
    ///
    /// ```
    /// use toolport_tools::{McpToolset, ReadonlyContext};
    ///
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector()).cache_key(
    ///     |context: Option<&ReadonlyContext>| {
    ///         let user = context.and_then(|c| c.get("user_id")).and_then(|id| id.as_str());
    ///         user.unwrap_or_default().to_owned()
    ///     },
    /// );
    /// # drop(builder);
    /// ```
    pub fn cache_key(
        mut self,
        key: impl Fn(Option<&ReadonlyContext>) -> String + Send + Sync + 'static,
    ) -> Self {
        self.cache_key = Arc::new(key);
        self
    }

    /// Wraps every call of every tool in `layer` (a tower timeout, concurrency limit, rate
    /// limit, retry; a hook that approves, denies or answers calls, [`BeforeCallLayer`]; one
    /// that rewrites results, [`AfterCallLayer`]; an [`ApprovalPolicy`]), inside the layers
    /// added before it. Arguments are checked before the layers; the server's structured
    /// content is checked before they see it, and results are mapped and budgeted after them.
    /// One stack serves the whole toolset, and each call runs on a clone of it. See
    /// `docs/tools.md`.
    ///
    /// [`BeforeCallLayer`]: crate::BeforeCallLayer
    /// [`AfterCallLayer`]: crate::AfterCallLayer
    /// [`ApprovalPolicy`]: crate::ApprovalPolicy
    pub fn layer<L>(mut self, layer: L) -> Self
    where
        L: tower::Layer<ToolService> + Send + Sync + 'static,
        L::Service: tower::Service<ToolCall, Response = CallToolResult> + Clone + Send + Sync,
        L::Service: 'static,
        <L::Service as tower::Service<ToolCall>>::Error: Into<BoxError>,
        <L::Service as tower::Service<ToolCall>>::Future: Send + 'static,
    {
        self.layers.push(layer);
        self
    }

    /// The toolset. It connects lazily, on first use, unless [`strict`](Self::strict) is set
    /// with an allowlist, which checks the server's tools now; call
    /// [`McpToolset::connect`] to connect now without checking.
    ///
    /// # Errors
    ///
    /// [`ToolsetError::SessionSettings`] when [`session`](Self::session) was given for a
    /// toolset built [`with_session`](McpToolset::with_session), whose session is built
    /// already: it would do nothing. And, with [`strict`](Self::strict), as
    /// [`McpToolset::tools`] when the server's tools cannot be checked, or
    /// [`ToolsetError::MissingTools`].
    pub async fn build(self) -> Result<McpToolset<S>, ToolsetError> {
        if self.session_settings_unapplied {
            return Err(ToolsetError::SessionSettings);
        }
        let session = Arc::new(match self.session {
            SessionSource::Build { builder, build } => build(*builder),
            SessionSource::Existing(session) => session,
        });
        let shared_session: Arc<dyn ToolSession> = session.clone();
        let call_path = CallPath::new(&shared_session, &self.layers);
        let load_resource = self
            .load_resource_tool
            .map(|name| Arc::new(LoadResourceTool::new(shared_session.clone()).named(name)));
        let toolset = McpToolset {
            session,
            shared_session,
            filter: self.filter,
            mapper: self.mapper,
            budgets: self.budgets,
            idempotent: self.idempotent,
            replay_opt_in: self.replay_opt_in,
            schema_checks: self.schema_checks,
            adaptation: self.adaptation,
            list_every_turn: self.list_every_turn,
            load_resource,
            cache: ToolListCache::new(self.cache_key),
            call_path,
        };
        if self.strict {
            toolset.check_allowlist().await?;
        }
        Ok(toolset)
    }
}
