//! MCP authorization (OAuth 2.1) for Toolport's HTTP transports.
//!
//! When it is complete, this crate will hold the whole client side of the MCP authorization
//! flow: protected-resource and authorization-server discovery, client identity (metadata
//! documents, dynamic registration, pre-registered credentials), the authorization-code flow
//! with PKCE, scopes and step-up, refresh, the client-credentials and JWT grants, DPoP, and an
//! `AuthorizationHandler` for the interactive step. It plugs into `toolport-http-client`'s
//! token-source seam.
//!
//! What it has so far is where the tokens live:
//!
//! - [`TokenSet`]: what an authorization leaves for one server (access token and
//!   [`TokenType`], refresh token, expiry, scopes, issuer), with
//!   [`needs_refresh`](TokenSet::needs_refresh). `Debug` shows no token.
//! - [`TokenKey`]: which server (by URL) and which identity the tokens belong to, with a stable
//!   [`storage_key`](TokenKey::storage_key).
//! - [`TokenStore`]: load, save and remove by key, with two backends:
//!   [`MemoryTokenStore`] (the default) and [`FileTokenStore`] (one JSON file, 0600, written
//!   atomically). A Redis backend for replicas, with a refresh lease, comes later.
//! - [`TokenStoreError`]: what went wrong, naming the file, never a token.
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

mod error;
mod file;
mod key;
mod memory;
mod store;
mod tokens;
mod wire;

pub use error::{FileAction, TokenStoreError};
pub use file::FileTokenStore;
pub use key::TokenKey;
pub use memory::MemoryTokenStore;
pub use store::TokenStore;
pub use tokens::{TokenSet, TokenType};
