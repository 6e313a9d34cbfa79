"""A server written with the official Python MCP SDK (mcp==2.3.0) whose one tool never returns.

`hang` appends `started <id>` to LOG_FILE when it is called, and `cancelled <id>` when the
client's `notifications/cancelled` makes the SDK cancel it, so a test can see what the server
received after the client gave up.

Usage:
    python_hang_server.py stdio LOG_FILE
"""

from __future__ import annotations

import asyncio
import sys

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer(name="toolport-hang")
LOG_FILE = ""


def log(line: str) -> None:
    with open(LOG_FILE, "a", encoding="utf-8") as file:
        file.write(line + "\n")


@server.tool(description="Never returns, until the client cancels it.")
async def hang(ctx: Context) -> str:
    log(f"started {ctx.request_id}")
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        log(f"cancelled {ctx.request_id}")
        raise
    return "unreachable"


def main(argv: list[str]) -> int:
    global LOG_FILE
    if len(argv) != 3 or argv[1] != "stdio":
        print("usage: python_hang_server.py stdio LOG_FILE", file=sys.stderr)
        return 2
    LOG_FILE = argv[2]
    server.run("stdio")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
