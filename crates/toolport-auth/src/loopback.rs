//! [`LoopbackAuthorization`]: the interactive step for an agent on the user's own machine: the
//! browser (handed only an `https` URL, or `http` to a loopback host), and a listener on
//! 127.0.0.1 that takes the redirect (RFC 8252 §7.3).

use std::convert::Infallible;
use std::fmt;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::{Mutex, mpsc};
use toolport_core::BoxError;
use url::Url;

use crate::AuthorizationHandler;
use crate::endpoint::check_scheme;

/// The page the browser shows once the redirect has arrived.
const DONE_PAGE: &str = "<!doctype html><title>Authorized</title>\
<p>Toolport has the answer. You can close this window.</p>";

/// Takes the user through authorization in their browser: prints the authorization URL on
/// stderr, asks the system to open it, and waits for the authorization server's redirect on a
/// listener bound to `127.0.0.1` (the redirect URI is `http://127.0.0.1:<port>/callback`).
///
/// For a command-line agent. Where there is no browser, the printed URL can be opened on any
/// machine that can reach the authorization server, as long as the redirect can reach this
/// one. Only one authorization runs at a time; each waits at most the
/// [`timeout`](Self::timeout) (five minutes unless set).
///
/// Only an `https` URL, or `http` to a loopback host, is printed or handed to the system's
/// opener (`xdg-open`, `open`, `explorer`), as one argument and never through a shell; any
/// other (a `file:` or `javascript:` URL from a hostile server's metadata) is an
/// [`EndpointRefused`](crate::EndpointRefused) error naming its scheme.
///
/// # Examples
///
/// ```no_run
/// use toolport_auth::{AuthorizationHandler, LoopbackAuthorization};
///
/// # fn main() -> std::io::Result<()> {
/// let handler = LoopbackAuthorization::bind()?;
/// assert_eq!(handler.redirect_uri().host_str(), Some("127.0.0.1"));
/// # Ok(())
/// # }
/// ```
pub struct LoopbackAuthorization {
    /// The bound socket, made a tokio listener on first use (that needs a runtime).
    socket: std::sync::Mutex<Option<std::net::TcpListener>>,
    listener: Mutex<Option<TcpListener>>,
    redirect_uri: Url,
    timeout: Duration,
    open_browser: bool,
}

impl LoopbackAuthorization {
    /// How long the user has to finish authorizing, unless set: five minutes.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

    /// Binds a listener on `127.0.0.1` at a port the system picks.
    ///
    /// # Errors
    ///
    /// When no socket can be bound.
    pub fn bind() -> io::Result<Self> {
        Self::bind_port(0)
    }

    /// Binds a listener on `127.0.0.1:port`, for an authorization server that wants one
    /// fixed redirect URI.
    ///
    /// # Errors
    ///
    /// When the port cannot be bound.
    pub fn bind_port(port: u16) -> io::Result<Self> {
        let socket = std::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
        socket.set_nonblocking(true)?;
        let port = socket.local_addr()?.port();
        let redirect_uri = Url::parse(&format!("http://127.0.0.1:{port}/callback"))
            .map_err(|error| io::Error::other(error.to_string()))?;
        Ok(Self {
            socket: std::sync::Mutex::new(Some(socket)),
            listener: Mutex::new(None),
            redirect_uri,
            timeout: Self::DEFAULT_TIMEOUT,
            open_browser: true,
        })
    }

    /// How long to wait for the user to finish authorizing.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Prints the URL without asking the system to open a browser.
    #[must_use]
    pub fn without_browser(mut self) -> Self {
        self.open_browser = false;
        self
    }

    /// Waits for a request at the redirect path on `listener`, answering every other request
    /// with 404, and returns the redirect as the authorization server sent it.
    async fn take_redirect(&self, listener: &TcpListener) -> io::Result<Url> {
        let (found, mut redirects) = mpsc::channel::<String>(1);
        let expected_path = Arc::<str>::from(self.redirect_uri.path());
        loop {
            tokio::select! {
                Some(path_and_query) = redirects.recv() => {
                    return self
                        .redirect_uri
                        .join(&path_and_query)
                        .map_err(|error| io::Error::other(error.to_string()));
                }
                accepted = listener.accept() => {
                    let (stream, _) = accepted?;
                    let found = found.clone();
                    let expected_path = expected_path.clone();
                    let service = service_fn(move |request| {
                        answer(request, expected_path.clone(), found.clone())
                    });
                    tokio::spawn(async move {
                        let connection = http1::Builder::new()
                            .keep_alive(false)
                            .serve_connection(TokioIo::new(stream), service);
                        if let Err(error) = connection.await {
                            tracing::debug!(%error, "a connection to the redirect listener failed");
                        }
                    });
                }
            }
        }
    }
}

/// Answers one request to the listener: the redirect is handed over, anything else is 404.
async fn answer(
    request: Request<Incoming>,
    expected_path: Arc<str>,
    found: mpsc::Sender<String>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let uri = request.uri();
    if uri.path() != &*expected_path {
        let mut response = Response::new(Full::new(Bytes::from_static(b"not found")));
        *response.status_mut() = StatusCode::NOT_FOUND;
        return Ok(response);
    }
    let path_and_query = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_owned(), ToString::to_string);
    let _ = found.try_send(path_and_query);
    let mut response = Response::new(Full::new(Bytes::from_static(DONE_PAGE.as_bytes())));
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/html; charset=utf-8"),
    );
    Ok(response)
}

/// A URL a browser may be handed: `https`, or `http` to a loopback host. The opener takes
/// nothing else.
#[derive(Debug, Clone, Copy)]
struct BrowserUrl<'a>(&'a Url);

impl<'a> BrowserUrl<'a> {
    /// `url`, if its scheme (and, for `http`, its host) allows it.
    fn checked(url: &'a Url) -> Result<Self, crate::EndpointRefused> {
        check_scheme(url, false)?;
        Ok(Self(url))
    }
}

/// Asks the system to open `url` in the browser, the URL as the opener's one argument (no
/// shell); a failure only means the user opens the printed URL themselves.
async fn open_in_browser(BrowserUrl(url): BrowserUrl<'_>) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let status = tokio::process::Command::new(opener)
        .arg(url.as_str())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .status();
    match tokio::time::timeout(Duration::from_secs(10), status).await {
        Ok(Ok(status)) if status.success() => {}
        Ok(Ok(status)) => tracing::debug!(%status, opener, "could not open a browser"),
        Ok(Err(error)) => tracing::debug!(%error, opener, "could not open a browser"),
        Err(_) => tracing::debug!(opener, "the browser opener did not return"),
    }
}

#[async_trait::async_trait]
impl AuthorizationHandler for LoopbackAuthorization {
    fn redirect_uri(&self) -> &Url {
        &self.redirect_uri
    }

    async fn authorize(&self, authorization_url: &Url) -> Result<Url, BoxError> {
        let browser_url = BrowserUrl::checked(authorization_url)?;
        let mut listener = self.listener.lock().await;
        if listener.is_none() {
            let socket = self
                .socket
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take()
                .ok_or("the redirect listener is gone")?;
            *listener = Some(TcpListener::from_std(socket)?);
        }
        let Some(listener) = listener.as_ref() else {
            return Err("the redirect listener is gone".into());
        };
        eprintln!("To authorize, open this URL in a browser:\n\n    {authorization_url}\n");
        if self.open_browser {
            open_in_browser(browser_url).await;
        }
        match tokio::time::timeout(self.timeout, self.take_redirect(listener)).await {
            Ok(redirect) => Ok(redirect?),
            Err(_) => Err(format!(
                "no answer reached {} within {:?}",
                self.redirect_uri, self.timeout
            )
            .into()),
        }
    }
}

impl fmt::Debug for LoopbackAuthorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoopbackAuthorization")
            .field("redirect_uri", &self.redirect_uri.as_str())
            .field("timeout", &self.timeout)
            .field("open_browser", &self.open_browser)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EndpointRefused;

    fn checked(url: &str) -> Result<(), EndpointRefused> {
        BrowserUrl::checked(&Url::parse(url).unwrap()).map(|_| ())
    }

    #[test]
    fn the_browser_gets_https_or_loopback_http_only() {
        assert_eq!(
            checked("https://auth.example.com/authorize?state=s"),
            Ok(())
        );
        assert_eq!(checked("http://127.0.0.1:9000/authorize"), Ok(()));
        assert_eq!(checked("http://localhost:9000/authorize"), Ok(()));
        for (url, scheme) in [
            ("file:///etc/passwd?response_type=code", "file"),
            ("javascript:alert(document.cookie)", "javascript"),
            ("data:text/html,<script>x</script>", "data"),
            ("smb://attacker.example/share", "smb"),
        ] {
            assert_eq!(
                checked(url),
                Err(EndpointRefused::Scheme {
                    scheme: scheme.into()
                }),
                "{url}"
            );
        }
        assert!(matches!(
            checked("http://auth.example.com/authorize"),
            Err(EndpointRefused::PlainHttp { .. })
        ));
    }
}
