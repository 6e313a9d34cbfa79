//! [`HeaderProvider`]: headers computed per request, from the caller's context.

use std::fmt;

use toolport_core::{BoxError, ReadonlyContext, Secret};

/// One HTTP header whose value may be a secret: it is redacted in `Debug` output.
pub type Header = (String, Secret);

/// Computes headers for each HTTP request, from the context of the caller that caused it.
///
/// Transports call it on every request, so rotating credentials and per-user identity need no
/// rebuilt toolset. Values are [`Secret`]s and never reach logs or `Debug` output.
///
/// Any `Fn(Option<&ReadonlyContext>) -> Result<Vec<Header>, BoxError>` is a provider; implement
/// the trait directly when the headers must be fetched asynchronously.
///
/// # Examples
///
/// ```
/// use toolport_core::{ReadonlyContext, Secret};
/// use toolport_http_client::HeaderProvider;
///
/// let provider = |context: Option<&ReadonlyContext>| {
///     let user = context
///         .and_then(|c| c.get("user_id"))
///         .and_then(|id| id.as_str())
///         .unwrap_or("anonymous");
///     Ok(vec![("X-User-Id".to_owned(), Secret::new(user))])
/// };
/// # fn assert_provider(_: &dyn HeaderProvider) {}
/// # assert_provider(&provider);
/// ```
#[async_trait::async_trait]
pub trait HeaderProvider: Send + Sync {
    /// The headers for one request made on behalf of the caller described by `context`
    /// (`None` for requests no caller made, such as `initialize`).
    async fn headers(&self, context: Option<&ReadonlyContext>) -> Result<Vec<Header>, BoxError>;
}

#[async_trait::async_trait]
impl<F> HeaderProvider for F
where
    F: Fn(Option<&ReadonlyContext>) -> Result<Vec<Header>, BoxError> + Send + Sync,
{
    async fn headers(&self, context: Option<&ReadonlyContext>) -> Result<Vec<Header>, BoxError> {
        self(context)
    }
}

impl fmt::Debug for dyn HeaderProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HeaderProvider(..)")
    }
}
