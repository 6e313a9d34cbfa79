//! A `redis-server` of the test's own on 127.0.0.1, on a free port, without persistence;
//! stopped (by its process ID) when dropped. The program is `$TOOLPORT_REDIS_SERVER` (which
//! `cargo xtask test` sets), else `redis-server` on the `PATH`.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long the server may take to accept connections.
const STARTUP: Duration = Duration::from_secs(10);

/// A running `redis-server`.
pub struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// Starts one with `extra` arguments (such as `--requirepass`), and waits until it accepts
    /// connections. Fails the test, saying how to install it, when `redis-server` is missing.
    pub fn start(extra: &[&str]) -> Self {
        let port = free_port();
        let program = std::env::var_os("TOOLPORT_REDIS_SERVER").unwrap_or("redis-server".into());
        let child = Command::new(&program)
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| {
                panic!(
                    "could not start {} ({error}); install it with `cargo xtask peers` or \
                     `apt-get install -y redis-server`",
                    program.to_string_lossy()
                )
            });
        let server = Self { child, port };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < STARTUP,
                "redis-server did not listen on port {port} within {STARTUP:?}"
            );
            sleep(Duration::from_millis(20));
        }
        server
    }

    /// Its URL, with `password` when given.
    pub fn url(&self, password: Option<&str>) -> String {
        match password {
            Some(password) => format!("redis://:{password}@127.0.0.1:{}/0", self.port),
            None => format!("redis://127.0.0.1:{}/0", self.port),
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
