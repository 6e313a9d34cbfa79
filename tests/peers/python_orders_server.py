"""An order desk written with the official Python MCP SDK (mcp==2.3.0), whose tools take nested
Pydantic models: the schemas the provider adapters are tested on.

Its input schemas have what Pydantic writes for real code: `$defs` with `$ref`s, a recursive
model (`Category.children`), optional fields as `anyOf` with null, `Literal` enums, a union of
models, lists of models, a free-form map, string formats and numeric bounds.

Usage:
    python_orders_server.py stdio
    python_orders_server.py schemas      # prints the tools' input schemas as one JSON object
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import date
from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str
    postcode: Annotated[str, Field(pattern=r"^[0-9A-Z -]{3,10}$")]
    country: Annotated[str, Field(min_length=2, max_length=2, description="ISO 3166 code")] = "DE"


class Customer(BaseModel):
    """Who the order is for."""

    name: str
    email: Annotated[str, Field(json_schema_extra={"format": "email"})]
    shipping: Address
    billing: Address | None = None


class Line(BaseModel):
    """One line of an order."""

    sku: str
    quantity: Annotated[int, Field(ge=1, le=1000)] = 1
    unit: Literal["piece", "box", "pallet"] = "piece"


class CardPayment(BaseModel):
    """Paid by card."""

    kind: Literal["card"]
    last4: Annotated[str, Field(min_length=4, max_length=4)]


class InvoicePayment(BaseModel):
    """Paid on invoice."""

    kind: Literal["invoice"]
    due: date


class Category(BaseModel):
    """A product category, and the categories below it."""

    name: str
    children: list[Category] = []


server = MCPServer("orders")


@server.tool()
def place_order(
    customer: Customer,
    lines: list[Line],
    payment: Annotated[Union[CardPayment, InvoicePayment], Field(discriminator="kind")],
    note: str | None = None,
    tags: dict[str, str] = {},
) -> str:
    """Places an order."""
    return f"order for {customer.name}: {len(lines)} lines, paid by {payment.kind}"


@server.tool()
def file_category(category: Category, priority: Literal[1, 2, 3] = 2) -> str:
    """Files a category tree."""
    return f"filed {category.name} with {len(category.children)} children at {priority}"


async def print_schemas() -> None:
    tools = await server.list_tools()
    print(json.dumps({tool.name: tool.input_schema for tool in tools}, indent=2))


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "schemas":
        asyncio.run(print_schemas())
    else:
        server.run("stdio")
