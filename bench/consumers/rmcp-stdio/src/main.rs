//! The bench's small program on rmcp's client over a child process: starts a server, prints
//! its tools' names and closes.

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let program = args.next().ok_or("usage: consumer COMMAND [ARG...]")?;
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    let client = ().serve(TokioChildProcess::new(command)?).await?;
    for tool in client.peer().list_all_tools().await? {
        println!("{}", tool.name);
    }
    client.cancel().await?;
    Ok(())
}
