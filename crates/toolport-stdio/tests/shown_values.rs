//! A program, argument or working directory given with `*_shown_as` reaches the child as
//! given, and is shown as the caller said everywhere else: the target, `Debug` output, spawn
//! errors, diagnostics and every log line.

mod common;

use rmcp::transport::Transport;
use toolport_core::{ConnectContext, ConnectError, ConnectionDiagnostics, Connector};
use toolport_fixtures::CapturedLog;
use toolport_stdio::StdioServer;
use toolport_testkit::bounded;

use common::{as_json, receive};

/// What `${MY_API_KEY}` expanded to.
const SECRET: &str = "sk-live-4f9a0c";

/// Shows the script its key (`$1`) reached it, then dies noisily: a line of garbage on
/// stdout, one on stderr, and status 3 once its stdin closes.
const SCRIPT: &str = r#"
[ "$1" = "--api-key=$EXPECTED" ] && echo '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"key received"}}'
echo "starting up"
echo "fatal: no database" >&2
read _
exit 3"#;

#[tokio::test]
async fn an_argument_shown_as_written_is_never_printed_expanded() {
    let log = CapturedLog::default();
    let _guard = tracing::subscriber::set_default(log.subscriber());

    let server = StdioServer::new("sh")
        .args(["-c", SCRIPT, "server"])
        .arg_shown_as(format!("--api-key={SECRET}"), "--api-key=${MY_API_KEY}")
        .env("EXPECTED", SECRET)
        .cwd_shown_as("/", "${WORKDIR}");
    let target = server.target();
    assert!(
        target.ends_with(" server --api-key=${MY_API_KEY}` over stdio"),
        "{target}"
    );

    let mut transport = server.spawn().unwrap();
    let message = receive(&mut transport).await.expect("the script answers");
    assert_eq!(as_json(&message)["params"]["data"], "key received");
    bounded("transport.close()", transport.close())
        .await
        .unwrap();
    // What is left on stdout, then the end, once stderr is drained too.
    while receive(&mut transport).await.is_some() {}
    let details = transport.diagnostics().failure_details().unwrap();
    assert!(details.contains("fatal: no database"), "{details}");

    let logs = log.text();
    assert!(logs.contains("--api-key=${MY_API_KEY}"), "{logs}");
    assert!(
        logs.contains("fatal: no database"),
        "stderr is logged: {logs}"
    );
    assert!(
        logs.contains("starting up"),
        "the garbage is logged: {logs}"
    );
    let shown = [
        target,
        format!("{server:?}"),
        format!("{transport:?}"),
        details,
        logs,
    ];
    for text in shown {
        assert!(!text.contains(SECRET), "{SECRET} shown in {text}");
    }
    assert!(format!("{server:?}").contains("${WORKDIR}"));
}

#[tokio::test]
async fn a_program_shown_as_written_names_it_in_spawn_errors() {
    let missing = StdioServer::new(format!("/nonexistent/{SECRET}/server"))
        .command_shown_as("${SERVER_BIN}")
        .arg("--stdio");
    assert_eq!(missing.target(), "`${SERVER_BIN} --stdio` over stdio");
    let error = missing
        .connect(&ConnectContext::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ConnectError::CommandNotFound { command } if command == "${SERVER_BIN}"),
        "{error:?}"
    );

    let unstartable = StdioServer::new("sh")
        .command_shown_as("${SHELL_BIN}")
        .cwd_shown_as(format!("/nonexistent/{SECRET}"), "${WORKDIR}");
    let error = unstartable
        .connect(&ConnectContext::default())
        .await
        .unwrap_err();
    let ConnectError::Spawn { command, .. } = &error else {
        panic!("expected a spawn error, got {error:?}");
    };
    assert_eq!(command, "${SHELL_BIN}");
    assert!(!format!("{error} {error:?}").contains(SECRET), "{error:?}");
}
