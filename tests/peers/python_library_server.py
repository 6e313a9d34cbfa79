"""A library written with the official Python MCP SDK (mcp==2.3.0): resources, a resource
template, prompts and completion, for the interop tests of everything but tools.

- `notes://welcome`: the text `Welcome to the library.`;
- `notes://logo`: a 1x1 PNG, as a blob;
- the template `notes://books/{title}`: the text `<title>, in stock`;
- `notes://broken`: reading it fails with `the shelf collapsed`;
- the prompt `recommend(genre, audience?)`: one user message naming both;
- completion of `genre` (for the prompt) from `fantasy`, `history` and `horror`, by prefix;
- the tool `reserve(title)`, which asks who the reader is (an elicitation: a standalone request
  on 2025-11-25, an `input_required` result on 2026-07-28) and reserves the book for them;
- the tool `restock(title)`, which announces on `subscriptions/listen` (2026-07-28) that
  `notes://welcome` changed and that the tool list changed;
- the tool `count_shelves(shelves)`, which reports each shelf as progress (`shelf N`).

Usage:
    python_library_server.py stdio
    python_library_server.py streamable-http [PORT]   # http://127.0.0.1:PORT/mcp

PORT defaults to 8000. The HTTP transport listens on 127.0.0.1 only.
"""

from __future__ import annotations

import base64
import sys
from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve
from mcp.types import Completion, PromptReference

TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
GENRES = ["fantasy", "history", "horror"]

server = MCPServer("toolport-python-library")


@server.resource("notes://welcome", mime_type="text/plain")
def welcome() -> str:
    """The library's welcome note."""
    return "Welcome to the library."


@server.resource("notes://logo", mime_type="image/png")
def logo() -> bytes:
    """The library's logo."""
    return TINY_PNG


@server.resource("notes://books/{title}", mime_type="text/plain")
def book(title: str) -> str:
    """Whether a book is in stock."""
    return f"{title}, in stock"


@server.resource("notes://broken", mime_type="text/plain")
def broken() -> str:
    """A note that cannot be read."""
    raise RuntimeError("the shelf collapsed")


@server.prompt()
def recommend(genre: str, audience: str = "adults") -> str:
    """Ask for a book recommendation."""
    return f"Recommend a {genre} book for {audience}."


@server.completion()
async def complete(ref, argument, context):
    if isinstance(ref, PromptReference) and argument.name == "genre":
        return Completion(values=[g for g in GENRES if g.startswith(argument.value)])
    return None


class Reader(BaseModel):
    name: str


def ask_reader() -> Elicit[Reader]:
    return Elicit("Who is reading?", Reader)


@server.tool()
async def reserve(title: str, reader: Annotated[Reader, Resolve(ask_reader)]) -> str:
    """Reserve a book for the reader, who is asked for."""
    return f"{title} reserved for {reader.name}"


@server.tool()
async def restock(title: str, ctx: Context) -> str:
    """Restock a book, and tell the listening clients."""
    await ctx.notify_resource_updated("notes://welcome")
    await ctx.notify_tools_changed()
    return f"{title} restocked"


@server.tool()
async def count_shelves(shelves: int, ctx: Context) -> str:
    """Count the shelves, reporting each one as progress."""
    for shelf in range(1, shelves + 1):
        await ctx.report_progress(shelf, shelves, f"shelf {shelf}")
    return f"{shelves} shelves counted"


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "stdio":
        server.run("stdio")
    else:
        port = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
        server.run(mode, host="127.0.0.1", port=port)


if __name__ == "__main__":
    main()
