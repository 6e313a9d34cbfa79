"""The task-tracker fixture written with the official Python MCP SDK (mcp==2.3.0).

It mirrors the Rust task tracker (`toolport-demo`, which toolport-testkit's `TaskTracker`
serves with rmcp): the same three tools (`list_tasks`, `add_task`, `complete_task`), the same
seed tasks T-1..T-3, ids continuing at T-4, structured output with output schemas, and the
same error text for an unknown id. The SDK prefixes a
tool error with `Error executing tool complete_task: `, so the error content reads
`Error executing tool complete_task: No task with ID T-9. Call list_tasks to see the valid IDs.`

On 2026-07-28 its tool list says it is public and fresh for a minute (`ttlMs`, `cacheScope`).

One tool goes beyond the Rust fixture: `get_logo` returns a 1x1 PNG as image content, so that
`cargo xtask interop` can check an image result against this SDK too.

Usage:
    python_tasks_server.py stdio
    python_tasks_server.py streamable-http [PORT]   # http://127.0.0.1:PORT/mcp
    python_tasks_server.py sse [PORT]               # http://127.0.0.1:PORT/sse

PORT defaults to 8000. The HTTP transports listen on 127.0.0.1 only. Each session has its
own tasks, as a fresh Rust `TaskTracker` would.
"""

from __future__ import annotations

import base64
import sys
import weakref
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

Status = Literal["open", "done"]
Priority = Literal["low", "normal", "high"]


class Task(BaseModel):
    """One task, as every tool returns it."""

    id: str = Field(description="The task's ID, such as `T-1`.")
    title: str = Field(description="What is to be done.")
    priority: Priority = Field(description="How urgent the task is.")
    status: Status = Field(description="Whether the task is open or done.")


class TaskList(BaseModel):
    """What `list_tasks` returns."""

    tasks: list[Task] = Field(description="The matching tasks, in ID order.")
    count: int = Field(description="How many tasks matched.")


class TaskBook:
    """The tasks of one session, and the number the next task gets."""

    def __init__(self) -> None:
        self.tasks: list[Task] = [
            Task(id="T-1", title="Write the release notes", priority="normal", status="open"),
            Task(id="T-2", title="Fix the login redirect bug", priority="high", status="done"),
            Task(id="T-3", title="Update the API docs", priority="low", status="open"),
        ]
        self.next_number = 4


# One book per connection (an MCP session), dropped with it. In mcp 2.x `ctx.session` is a
# new object for every request; the connection it wraps is what lasts as long as the session,
# and the SDK exposes it only as the private `_connection`. Without it, fall back to one book
# for the whole process, which is still right for stdio.
_books: weakref.WeakKeyDictionary[Any, TaskBook] = weakref.WeakKeyDictionary()
_process_book = TaskBook()


def _book(ctx: Context) -> TaskBook:
    connection = getattr(ctx.session, "_connection", None)
    if connection is None:
        return _process_book
    book = _books.get(connection)
    if book is None:
        book = _books[connection] = TaskBook()
    return book


server = MCPServer(
    name="toolport-task-tracker",
    instructions="A to-do list. Call list_tasks to see the tasks and their IDs.",
    # On 2026-07-28: the tools are the same for every caller, and stay so for a minute.
    cache_hints={"tools/list": CacheHint(ttl_ms=60_000, scope="public")},
)


@server.tool(
    description="Lists the tasks, optionally filtered by status (open or done).",
    annotations=ToolAnnotations(read_only_hint=True),
)
def list_tasks(
    ctx: Context,
    status: Annotated[
        Status | None,
        Field(description="Only list tasks with this status; omit it to list every task."),
    ] = None,
) -> TaskList:
    tasks = [task for task in _book(ctx).tasks if status is None or task.status == status]
    return TaskList(tasks=tasks, count=len(tasks))


@server.tool(
    description="Adds a new open task with the given title and priority "
    "(low, normal or high; default normal) and returns it.",
)
def add_task(
    ctx: Context,
    title: Annotated[str, Field(description="What is to be done.")],
    priority: Annotated[Priority, Field(description="How urgent the task is.")] = "normal",
) -> Task:
    book = _book(ctx)
    task = Task(id=f"T-{book.next_number}", title=title, priority=priority, status="open")
    book.next_number += 1
    book.tasks.append(task)
    return task


@server.tool(
    description="Marks the task with the given ID as done and returns it.",
    annotations=ToolAnnotations(idempotent_hint=True),
)
def complete_task(
    ctx: Context,
    task_id: Annotated[
        str,
        Field(
            pattern=r"^T-\d+$",
            description="The ID of the task to mark as done, such as `T-1`.",
        ),
    ],
) -> Task:
    for task in _book(ctx).tasks:
        if task.id == task_id:
            task.status = "done"
            return task
    raise ToolError(f"No task with ID {task_id}. Call list_tasks to see the valid IDs.")


# A valid 1x1 PNG: one half-transparent blue pixel.
_LOGO_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


@server.tool(
    description="Returns the tracker's logo, a tiny PNG image.",
    annotations=ToolAnnotations(read_only_hint=True),
)
def get_logo() -> Image:
    return Image(data=_LOGO_PNG, format="png")


def main(argv: list[str]) -> int:
    usage = "usage: python_tasks_server.py stdio|streamable-http|sse [PORT]"
    if not argv or argv[0] not in ("stdio", "streamable-http", "sse") or len(argv) > 2:
        print(usage, file=sys.stderr)
        return 2
    transport = argv[0]
    if transport == "stdio":
        if len(argv) > 1:
            print(usage, file=sys.stderr)
            return 2
        server.run("stdio")
        return 0
    port = int(argv[1]) if len(argv) > 1 else 8000
    if transport == "streamable-http":
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run("sse", host="127.0.0.1", port=port)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
