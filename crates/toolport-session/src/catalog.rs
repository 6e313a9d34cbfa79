//! What a server publishes besides its tools: resources, resource templates and prompts, read
//! and fetched on the session, and completion of their arguments.
//!
//! Each of these requests only reads, so each is tried again on a fresh connection when its
//! connection fails, as tool discovery is ([`RetryPolicy`](crate::RetryPolicy)). An error the
//! server answers with is passed on at once, as it sent it, with the resource or prompt it was
//! about: it is never retried, nor turned into another error. A server that does not publish a
//! kind (no capability for it, or `Method not found` for its listing) lists none.

use rmcp::model::{
    ArgumentInfo, ClientRequest, CompleteRequest, CompleteRequestParams, CompletionContext,
    CompletionInfo, GetPromptRequest, GetPromptRequestParams, GetPromptResult, JsonObject,
    ListPromptsRequest, ListResourceTemplatesRequest, ListResourcesRequest, PaginatedRequestParams,
    Prompt, ReadResourceRequest, ReadResourceRequestParams, ReadResourceResult, Reference,
    Resource, ResourceTemplate, ServerCapabilities, ServerResult,
};
use toolport_core::ReadonlyContext;

use std::future::Future;
use std::sync::Arc;

use crate::connection::LiveConnection;
use crate::listing::{CacheHints, Page};
use crate::method::Method;
use crate::{McpSession, SessionError};

/// A kind of thing a server may publish, and whether it says it does.
#[derive(Debug, Clone, Copy)]
enum Published {
    Resources,
    Prompts,
    Completions,
}

impl Published {
    fn by(self, capabilities: &ServerCapabilities) -> bool {
        match self {
            Self::Resources => capabilities.resources.is_some(),
            Self::Prompts => capabilities.prompts.is_some(),
            Self::Completions => capabilities.completions.is_some(),
        }
    }
}

impl McpSession {
    /// Every resource the server lists, all pages. Empty when the server publishes none.
    ///
    /// # Errors
    ///
    /// [`SessionError::Rpc`] with the server's own error, at once; otherwise as
    /// [`list_tools`](Self::list_tools).
    pub async fn list_resources(&self) -> Result<Vec<Resource>, SessionError> {
        self.list_published(
            Published::Resources,
            "resources/list",
            |params| {
                let request = ListResourcesRequest {
                    params,
                    ..Default::default()
                };
                ClientRequest::ListResourcesRequest(request)
            },
            |result| match result {
                ServerResult::ListResourcesResult(page) => Some(Page {
                    items: page.resources,
                    next: page.next_cursor,
                    hints: CacheHints::of_page(page.ttl_ms, page.cache_scope),
                }),
                _ => None,
            },
        )
        .await
    }

    /// Every resource template the server lists, all pages. Empty when the server publishes
    /// none.
    ///
    /// # Errors
    ///
    /// [`SessionError::Rpc`] with the server's own error, at once; otherwise as
    /// [`list_tools`](Self::list_tools).
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, SessionError> {
        self.list_published(
            Published::Resources,
            "resources/templates/list",
            |params| {
                let request = ListResourceTemplatesRequest {
                    params,
                    ..Default::default()
                };
                ClientRequest::ListResourceTemplatesRequest(request)
            },
            |result| match result {
                ServerResult::ListResourceTemplatesResult(page) => Some(Page {
                    items: page.resource_templates,
                    next: page.next_cursor,
                    hints: CacheHints::of_page(page.ttl_ms, page.cache_scope),
                }),
                _ => None,
            },
        )
        .await
    }

    /// Reads the resource at `uri`: its contents, text or blob.
    ///
    /// # Errors
    ///
    /// [`SessionError::Rpc`] with the server's own error (a resource it does not have, say),
    /// naming the URI; otherwise as [`list_tools`](Self::list_tools).
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, SessionError> {
        self.read_resource_for(uri, None).await
    }

    /// [`read_resource`](Self::read_resource) on behalf of the caller described by `context`,
    /// which the transport sees (an HTTP header provider, say).
    pub async fn read_resource_for(
        &self,
        uri: &str,
        context: Option<&ReadonlyContext>,
    ) -> Result<ReadResourceResult, SessionError> {
        let method = Method::Resource(uri);
        self.answered(method, |connection| async move {
            let params = ReadResourceRequestParams::new(uri);
            let request = ClientRequest::ReadResourceRequest(ReadResourceRequest::new(params));
            match self.send(&connection, method, request, context).await? {
                ServerResult::ReadResourceResult(result) => Ok(result),
                _ => Err(self.unexpected(method)),
            }
        })
        .await
    }

    /// Every prompt the server lists, all pages. Empty when the server publishes none.
    ///
    /// # Errors
    ///
    /// [`SessionError::Rpc`] with the server's own error, at once; otherwise as
    /// [`list_tools`](Self::list_tools).
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, SessionError> {
        self.list_published(
            Published::Prompts,
            "prompts/list",
            |params| {
                let request = ListPromptsRequest {
                    params,
                    ..Default::default()
                };
                ClientRequest::ListPromptsRequest(request)
            },
            |result| match result {
                ServerResult::ListPromptsResult(page) => Some(Page {
                    items: page.prompts,
                    next: page.next_cursor,
                    hints: CacheHints::of_page(page.ttl_ms, page.cache_scope),
                }),
                _ => None,
            },
        )
        .await
    }

    /// The prompt `name`, filled in with `arguments` (string values, as the prompt declares
    /// them).
    ///
    /// # Errors
    ///
    /// [`SessionError::Rpc`] with the server's own error (a missing argument, say), naming the
    /// prompt; otherwise as [`list_tools`](Self::list_tools).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> Result<GetPromptResult, SessionError> {
        let method = Method::Prompt(name);
        self.answered(method, |connection| {
            let arguments = arguments.clone();
            async move {
                let params = GetPromptRequestParams::new(name).with_arguments(arguments);
                let request = ClientRequest::GetPromptRequest(GetPromptRequest::new(params));
                match self.send(&connection, method, request, None).await? {
                    ServerResult::GetPromptResult(result) => Ok(result),
                    _ => Err(self.unexpected(method)),
                }
            }
        })
        .await
    }

    /// Completions for `argument` of the prompt or resource template `reference`, given the
    /// values of its other arguments in `context`. No values when the server does not complete.
    ///
    /// # Errors
    ///
    /// As [`read_resource`](Self::read_resource).
    pub async fn complete(
        &self,
        reference: Reference,
        argument: ArgumentInfo,
        context: Option<CompletionContext>,
    ) -> Result<CompletionInfo, SessionError> {
        let method = Method::Named("completion/complete");
        self.answered(method, |connection| {
            let (reference, argument, context) =
                (reference.clone(), argument.clone(), context.clone());
            async move {
                if !connection.publishes(|capabilities| Published::Completions.by(capabilities)) {
                    return Ok(CompletionInfo::default());
                }
                let mut params = CompleteRequestParams::new(reference, argument);
                if let Some(context) = context {
                    params = params.with_context(context);
                }
                let request = ClientRequest::CompleteRequest(CompleteRequest::new(params));
                match self.send(&connection, method, request, None).await {
                    Ok(ServerResult::CompleteResult(result)) => Ok(result.completion),
                    Ok(_) => Err(self.unexpected(method)),
                    Err(error) if error.is_method_not_found() => Ok(CompletionInfo::default()),
                    Err(error) => Err(error),
                }
            }
        })
        .await
    }

    /// Runs `request` as discovery runs (again on a fresh connection when the connection
    /// fails, per the [`RetryPolicy`](crate::RetryPolicy)), except that an error the server
    /// answered with is its answer: it is passed on at once, and the connection kept.
    ///
    /// It runs in the span of `method` (the operation's: see `span.rs`).
    async fn answered<T, F, Fut>(&self, method: Method<'_>, request: F) -> Result<T, SessionError>
    where
        F: Fn(Arc<LiveConnection>) -> Fut,
        Fut: Future<Output = Result<T, SessionError>>,
    {
        let answer = self.discover(|connection| {
            let attempt = request(connection);
            async move {
                match attempt.await {
                    Err(error @ SessionError::Rpc { .. }) => Ok(Err(error)),
                    outcome => outcome.map(Ok),
                }
            }
        });
        self.in_operation(method, async { answer.await? }).await
    }

    /// Every page of a listing of `kind`, or none when the server does not publish it.
    async fn list_published<T>(
        &self,
        kind: Published,
        method: &'static str,
        request: fn(Option<PaginatedRequestParams>) -> ClientRequest,
        page: fn(ServerResult) -> Option<Page<T>>,
    ) -> Result<Vec<T>, SessionError> {
        self.answered(Method::Named(method), |connection| async move {
            if !connection.publishes(|capabilities| kind.by(capabilities)) {
                return Ok(Vec::new());
            }
            match self
                .all_pages(&connection, None, method, request, page)
                .await
            {
                Err(error) if error.is_method_not_found() => Ok(Vec::new()),
                outcome => outcome.map(|listing| listing.items),
            }
        })
        .await
    }
}
