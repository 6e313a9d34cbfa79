//! [`BoxedTransport`]: any rmcp client transport behind one concrete type, so a [`Connector`]
//! can be a trait object and the session layer never names a transport.
//!
//! [`Connector`]: crate::Connector

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use crate::BoxError;

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// An error from a boxed transport: the inner transport's error, kept as its source (so that
/// markers such as [`AuthorizationRequired`](crate::AuthorizationRequired) and
/// [`NotDelivered`](crate::NotDelivered) stay findable in the chain).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TransportError(#[source] BoxError);

impl TransportError {
    /// Wraps any error as a transport error.
    pub fn new(error: impl Into<BoxError>) -> Self {
        Self(error.into())
    }

    /// The inner transport's error.
    pub fn inner(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self.0.as_ref()
    }
}

/// The object-safe face of `Transport<RoleClient>`.
trait DynTransport: Send {
    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> BoxFuture<'static, Result<(), TransportError>>;
    fn receive(&mut self) -> BoxFuture<'_, Option<RxJsonRpcMessage<RoleClient>>>;
    fn close(&mut self) -> BoxFuture<'_, Result<(), TransportError>>;
}

impl<T: Transport<RoleClient> + 'static> DynTransport for T {
    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> BoxFuture<'static, Result<(), TransportError>> {
        let sending = Transport::send(self, item);
        Box::pin(async move { sending.await.map_err(TransportError::new) })
    }

    fn receive(&mut self) -> BoxFuture<'_, Option<RxJsonRpcMessage<RoleClient>>> {
        Box::pin(Transport::receive(self))
    }

    fn close(&mut self) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move { Transport::close(self).await.map_err(TransportError::new) })
    }
}

/// Any `rmcp` client transport, boxed. It is itself a `Transport<RoleClient>`.
pub struct BoxedTransport {
    inner: Box<dyn DynTransport>,
    name: &'static str,
}

impl BoxedTransport {
    /// Boxes `transport`.
    pub fn new<T: Transport<RoleClient> + 'static>(transport: T) -> Self {
        Self {
            inner: Box::new(transport),
            name: std::any::type_name::<T>(),
        }
    }
}

impl fmt::Debug for BoxedTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoxedTransport")
            .field("inner", &self.name)
            .finish()
    }
}

impl Transport<RoleClient> for BoxedTransport {
    type Error = TransportError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.inner.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
