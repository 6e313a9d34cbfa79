//! [`http_options_builder!`](crate::http_options_builder): the builder methods of
//! [`HttpOptions`](crate::HttpOptions), written once for every HTTP transport's server type.

/// Adds [`HttpOptions`](crate::HttpOptions)' builder methods (`options`, `header`,
/// `header_provider`, `bearer_token`, `api_key`, `authorizer`, `max_response_bytes`, `network`,
/// `proxy`, `no_proxy`, `proxy_bypass`, `add_root_certificate`, `client_identity`) to a server type that
/// keeps its options in a field named `options`. Invoke it inside the type's `impl` block.
///
/// # Examples
///
/// ```
/// use toolport_http_client::HttpOptions;
///
/// /// A server reached over some HTTP transport.
/// #[derive(Debug)]
/// pub struct MyServer {
///     url: String,
///     options: HttpOptions,
/// }
///
/// impl MyServer {
///     toolport_http_client::http_options_builder!();
/// }
///
/// let server = MyServer { url: "http://127.0.0.1:1/mcp".into(), options: HttpOptions::new() }
///     .header("X-Client", "my-agent")
///     .max_response_bytes(4096);
/// assert_eq!(server.options.max_response_bytes, 4096);
/// ```
#[macro_export]
macro_rules! http_options_builder {
    () => {
        /// Replaces all header, credential and limit settings at once.
        #[must_use]
        pub fn options(mut self, options: $crate::HttpOptions) -> Self {
            self.options = options;
            self
        }

        /// Adds a header sent with every request; a name given twice is sent twice. The value
        /// is treated as a secret. See [`HttpOptions::header`](toolport_http_client::HttpOptions::header).
        #[must_use]
        pub fn header(
            mut self,
            name: impl ::std::convert::Into<::std::string::String>,
            value: impl ::std::convert::Into<$crate::Secret>,
        ) -> Self {
            self.options = self.options.header(name, value);
            self
        }

        /// Computes headers per request from the caller's context; see
        /// [`HttpOptions::header_provider`](toolport_http_client::HttpOptions::header_provider).
        #[must_use]
        pub fn header_provider(mut self, provider: impl $crate::HeaderProvider + 'static) -> Self {
            self.options = self.options.header_provider(provider);
            self
        }

        /// Sends `Authorization: Bearer <token>`, asked for per request; see
        /// [`HttpOptions::bearer_token`](toolport_http_client::HttpOptions::bearer_token).
        #[must_use]
        pub fn bearer_token(mut self, source: impl $crate::TokenSource + 'static) -> Self {
            self.options = self.options.bearer_token(source);
            self
        }

        /// Sends an API key in `header`, asked for per request; see
        /// [`HttpOptions::api_key`](toolport_http_client::HttpOptions::api_key).
        #[must_use]
        pub fn api_key(
            mut self,
            header: impl ::std::convert::Into<::std::string::String>,
            source: impl $crate::TokenSource + 'static,
        ) -> Self {
            self.options = self.options.api_key(header, source);
            self
        }

        /// Authorizes every request and renews refused credentials once per request; see
        /// [`HttpOptions::authorizer`](toolport_http_client::HttpOptions::authorizer).
        #[must_use]
        pub fn authorizer(mut self, authorizer: impl $crate::Authorizer + 'static) -> Self {
            self.options = self.options.authorizer(authorizer);
            self
        }

        /// The largest JSON answer or SSE event accepted, in bytes. Default 16 MiB. See
        /// [`HttpOptions::max_response_bytes`](toolport_http_client::HttpOptions::max_response_bytes).
        #[must_use]
        pub fn max_response_bytes(mut self, bytes: usize) -> Self {
            self.options = self.options.max_response_bytes(bytes);
            self
        }

        /// Replaces the proxy, the added roots and the client certificate at once; see
        /// [`HttpOptions::network`](toolport_http_client::HttpOptions::network).
        #[must_use]
        pub fn network(mut self, network: $crate::NetworkOptions) -> Self {
            self.options = self.options.network(network);
            self
        }

        /// Sends every request through this `http://` proxy, loopback included; see
        /// [`HttpOptions::proxy`](toolport_http_client::HttpOptions::proxy).
        #[must_use]
        pub fn proxy(mut self, url: impl ::std::convert::Into<$crate::Secret>) -> Self {
            self.options = self.options.proxy(url);
            self
        }

        /// Sends every request straight to the server, whatever the environment says; see
        /// [`HttpOptions::no_proxy`](toolport_http_client::HttpOptions::no_proxy).
        #[must_use]
        pub fn no_proxy(mut self) -> Self {
            self.options = self.options.no_proxy();
            self
        }

        /// The hosts that bypass the proxy, instead of `NO_PROXY`; see
        /// [`HttpOptions::proxy_bypass`](toolport_http_client::HttpOptions::proxy_bypass).
        #[must_use]
        pub fn proxy_bypass(
            mut self,
            hosts: impl ::std::convert::Into<::std::string::String>,
        ) -> Self {
            self.options = self.options.proxy_bypass(hosts);
            self
        }

        /// Trusts the certificate authorities of a PEM text besides the system's; see
        /// [`HttpOptions::add_root_certificate`](toolport_http_client::HttpOptions::add_root_certificate).
        #[must_use]
        pub fn add_root_certificate(
            mut self,
            pem: impl ::std::convert::Into<::std::vec::Vec<u8>>,
        ) -> Self {
            self.options = self.options.add_root_certificate(pem);
            self
        }

        /// Presents a client certificate (mutual TLS); see
        /// [`HttpOptions::client_identity`](toolport_http_client::HttpOptions::client_identity).
        #[must_use]
        pub fn client_identity(
            mut self,
            cert_chain_pem: impl ::std::convert::Into<::std::vec::Vec<u8>>,
            key_pem: impl ::std::convert::Into<$crate::Secret>,
        ) -> Self {
            self.options = self.options.client_identity(cert_chain_pem, key_pem);
            self
        }
    };
}
