//! The bench's small program on rmcp's client over a child process and over Streamable HTTP
//! (its reqwest client): starts a server (a command, or a URL), prints its tools' names and
//! closes.

use rmcp::ServiceExt;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let server = args
        .next()
        .ok_or("usage: consumer COMMAND [ARG...] | URL")?;
    let client = if server.starts_with("http://") {
        ().serve(StreamableHttpClientTransport::from_uri(server))
            .await?
    } else {
        let mut command = tokio::process::Command::new(server);
        command.args(args);
        ().serve(TokioChildProcess::new(command)?).await?
    };
    for tool in client.peer().list_all_tools().await? {
        println!("{}", tool.name);
    }
    client.cancel().await?;
    Ok(())
}
