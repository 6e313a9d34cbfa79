"""A server written with the official Python MCP SDK (mcp==2.3.0) whose results have the shapes
that SDK gives structured output.

- `greet` returns a string: the SDK sends it as a text block and, since the tool has an output
  schema, as structured content wrapped as `{"result": "Hello, NAME"}`.
- `snapshot` returns a model holding an image block: the SDK copies the image's base64 into
  the structured content, and into a text block as JSON.
- `pixel` returns an image: an image block alone.

Usage:
    python_results_server.py stdio
"""

from __future__ import annotations

import sys

import base64

from mcp.server.mcpserver import Image, MCPServer
from mcp.types import ImageContent
from pydantic import BaseModel

server = MCPServer(name="toolport-results")

# A valid 1x1 PNG, 70 bytes: one half-transparent blue pixel.
PIXEL_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


class Snapshot(BaseModel):
    caption: str
    image: ImageContent


@server.tool(description="Greets someone by name.")
def greet(name: str) -> str:
    return f"Hello, {name}"


@server.tool(description="Returns a one-pixel snapshot with its caption.")
def snapshot() -> Snapshot:
    image = ImageContent(type="image", data=PIXEL_PNG, mime_type="image/png")
    return Snapshot(caption="one blue pixel", image=image)


@server.tool(description="Returns a one-pixel PNG image.")
def pixel() -> Image:
    return Image(data=base64.b64decode(PIXEL_PNG), format="png")


def main(argv: list[str]) -> int:
    if argv[1:] != ["stdio"]:
        print("usage: python_results_server.py stdio", file=sys.stderr)
        return 2
    server.run("stdio")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
