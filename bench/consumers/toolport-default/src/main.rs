//! The bench's small program on Toolport's default features: starts a server (a command over
//! stdio, or a Streamable HTTP URL), prints its tools' names and closes.

use toolport::http::HttpServer;
use toolport::stdio::StdioServer;
use toolport::McpToolset;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let server = args
        .next()
        .ok_or("usage: consumer COMMAND [ARG...] | URL")?;
    let toolset = if server.starts_with("http://") {
        McpToolset::builder(HttpServer::new(server)).build().await?
    } else {
        McpToolset::builder(StdioServer::new(server).args(args))
            .build()
            .await?
    };
    for tool in toolset.tools(None).await? {
        println!("{}", tool.name());
    }
    toolset.close().await;
    Ok(())
}
