"""The official Python SDK's client (`mcp`), as its README uses it, for `cargo xtask bench`.

    python py_client.py seq|concurrent|cold|discovery [--n N] [--concurrency C] [--arg NAME]
        [--transport stdio|http] [--port-env VAR] -- SERVER...

It prints the same JSON result line as the Rust clients. With `--transport http`, SERVER is
spawned, prints its endpoint on its first stdout line, and is talked to with
`mcp.client.streamable_http`; it is a child process, so its CPU time is not in this one's. With
`--port-env VAR` it is instead given a free port in env var VAR, waited for until the port accepts
connections, talked to at `http://127.0.0.1:<port>/mcp`, and stopped with SIGTERM to its PID (as
the Rust clients do, `bench/src/http.rs`).
"""

import json
import os
import socket
import subprocess
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

ECHO_TEXT = "toolport bench: the same 64-byte text for every client and call."


def parse_args(argv):
    """Parses `WORKLOAD [options] -- SERVER...`."""
    if "--" not in argv:
        raise SystemExit("usage: py_client.py WORKLOAD [--n N] [--concurrency C] -- SERVER...")
    split = argv.index("--")
    workload, *options = argv[:split]
    args = {
        "workload": workload,
        "n": 1000,
        "concurrency": 32,
        "arg": "text",
        "transport": "stdio",
        "port_env": None,
        "server": argv[split + 1 :],
    }
    for flag, value in zip(options[::2], options[1::2]):
        if flag == "--n":
            args["n"] = int(value)
        elif flag == "--concurrency":
            args["concurrency"] = int(value)
        elif flag == "--arg":
            args["arg"] = value
        elif flag == "--transport":
            args["transport"] = value
        elif flag == "--port-env":
            args["port_env"] = value
        elif flag != "--flavour":
            raise SystemExit(f"unknown option {flag}")
    return args


def peak_rss_kib():
    """The peak resident set size in KiB, from /proc/self/status."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def mark():
    """A point in wall-clock and CPU time."""
    return time.perf_counter(), time.process_time()


def since(start):
    """Seconds of wall-clock and CPU time since `start`."""
    wall, cpu = start
    return {"elapsed_s": time.perf_counter() - wall, "cpu_s": time.process_time() - cpu}


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (the OS's pick for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def spawn_on_free_port(server, port_env):
    """Starts an HTTP server that listens on the port in env var `port_env`, and waits (30 s at
    most) until the port accepts connections. Returns the process and the endpoint."""
    port = free_port()
    env = {**os.environ, port_env: str(port)}
    process = subprocess.Popen(
        server, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            pass
        if process.poll() is not None:
            raise RuntimeError(f"the HTTP server exited before listening: {process.returncode}")
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"the HTTP server did not listen on port {port} in 30 s")
        await anyio.sleep(0.01)
    return process, f"http://127.0.0.1:{port}/mcp"


class Session:
    """One server process and the SDK's session over it, as async context managers."""

    def __init__(self, server, transport="stdio", port_env=None):
        self.server = server
        self.http = transport == "http"
        self.port_env = port_env
        self.process = None

    async def __aenter__(self):
        if self.http and self.port_env:
            self.process, url = await spawn_on_free_port(self.server, self.port_env)
            self.transport = streamable_http_client(url)
        elif self.http:
            self.process = subprocess.Popen(
                self.server, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
            url = self.process.stdout.readline().strip()
            if not url.startswith("http://"):
                raise RuntimeError(f"the HTTP server printed no endpoint: {url!r}")
            self.transport = streamable_http_client(url)
        else:
            params = StdioServerParameters(command=self.server[0], args=self.server[1:])
            self.transport = stdio_client(params)
        streams = await self.transport.__aenter__()
        self.session = ClientSession(streams[0], streams[1])
        await self.session.__aenter__()
        await self.session.initialize()
        return self.session

    async def __aexit__(self, *exc):
        await self.session.__aexit__(*exc)
        await self.transport.__aexit__(*exc)
        if self.process is not None and self.port_env:
            self.process.terminate()  # SIGTERM to its PID
            self.process.wait()
        elif self.process is not None:
            self.process.stdin.close()
            self.process.wait()


async def echo(session, arg):
    result = await session.call_tool("echo", {arg: ECHO_TEXT})
    if result.is_error:
        raise RuntimeError("echo failed")


async def run(args):
    n, samples = args["n"], []
    workload = args["workload"]
    if workload == "cold":
        start = mark()
        for _ in range(n):
            began = time.perf_counter()
            async with Session(args["server"]) as session:
                await session.list_tools()
            samples.append((time.perf_counter() - began) * 1e3)
        return since(start), samples
    async with Session(args["server"], args["transport"], args["port_env"]) as session:
        await session.list_tools()
        # Warm as many calls as will be in flight, so pooled connections are open.
        in_flight = args["concurrency"] if workload == "concurrent" else 1
        async with anyio.create_task_group() as warming:
            for _ in range(in_flight):
                warming.start_soon(echo, session, args["arg"])
        start = mark()
        if workload == "seq":
            for _ in range(n):
                await echo(session, args["arg"])
        elif workload == "concurrent":
            async def worker(share):
                for _ in range(share):
                    await echo(session, args["arg"])

            concurrency = args["concurrency"]
            async with anyio.create_task_group() as workers:
                for w in range(concurrency):
                    workers.start_soon(worker, n // concurrency + (1 if w < n % concurrency else 0))
        elif workload == "discovery":
            for _ in range(n):
                await session.list_tools()
        else:
            raise SystemExit(f"unsupported workload {workload}")
        measured = since(start)
    return measured, samples


def main():
    args = parse_args(sys.argv[1:])
    measured, samples = anyio.run(run, args)
    line = {
        "client": "python",
        "flavour": "asyncio",
        "workload": args["workload"],
        "ops": args["n"],
        **measured,
        "samples_ms": samples,
        "rss_per_session_kib": None,
        "peak_rss_kib": peak_rss_kib(),
    }
    print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
