//! The bench's small program on Toolport with `stdio` alone: starts a server, prints its
//! tools' names and closes.

use toolport::stdio::StdioServer;
use toolport::McpToolset;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let command = args.next().ok_or("usage: consumer COMMAND [ARG...]")?;
    let toolset = McpToolset::builder(StdioServer::new(command).args(args))
        .build()
        .await?;
    for tool in toolset.tools(None).await? {
        println!("{}", tool.name());
    }
    toolset.close().await;
    Ok(())
}
