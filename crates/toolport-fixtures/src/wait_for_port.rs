//! [`wait_for_port`]: waits until a local TCP port accepts connections, for tests that start an
//! HTTP server in a child process.

use std::io;
use std::net::Ipv4Addr;
use std::time::Duration;

use tokio::net::TcpStream;
use tokio::time::Instant;

/// How long to wait between two connection attempts.
const POLL: Duration = Duration::from_millis(20);

/// Waits until `127.0.0.1:port` accepts a TCP connection, trying every 20 ms for at most
/// `timeout`. The probe connection is closed at once.
///
/// # Errors
///
/// [`io::ErrorKind::TimedOut`] if nothing accepted in time, with the last connect error.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use toolport_testkit::TaskTracker;
/// use toolport_fixtures::{HttpFixtureServer, wait_for_port};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = HttpFixtureServer::start(TaskTracker::new).await.unwrap();
/// wait_for_port(server.port(), Duration::from_secs(1)).await.unwrap();
/// # }
/// ```
pub async fn wait_for_port(port: u16, timeout: Duration) -> io::Result<()> {
    let deadline = Instant::now() + timeout;
    loop {
        let attempt =
            tokio::time::timeout_at(deadline, TcpStream::connect((Ipv4Addr::LOCALHOST, port)));
        let error = match attempt.await {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(error)) => error.to_string(),
            Err(_) => "the connect attempt hung".to_owned(),
        };
        if Instant::now() + POLL >= deadline {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("127.0.0.1:{port} did not accept connections within {timeout:?}: {error}"),
            ));
        }
        tokio::time::sleep(POLL).await;
    }
}
