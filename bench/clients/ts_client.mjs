//! The TypeScript SDK's client (`@modelcontextprotocol/sdk`), as its README uses it, for
//! `cargo xtask bench`. It prints the same JSON result line as the Rust clients.
//!
//!   node ts_client.mjs SDK_DIR seq|concurrent|cold|discovery [--n N] [--concurrency C]
//!       [--arg NAME] [--transport stdio|http] [--port-env VAR] -- SERVER...
//!
//! With `--transport http`, SERVER is spawned, prints its endpoint on its first stdout line, and
//! is talked to with `StreamableHTTPClientTransport`; it is a child process, so its CPU time is
//! not in this one's. With `--port-env VAR` it is instead given a free port in env var VAR, waited
//! for until the port accepts connections, talked to at `http://127.0.0.1:<port>/mcp`, and stopped
//! with SIGTERM to its PID (as the Rust clients do, `bench/src/http.rs`).
//!
//! SDK_DIR is the installed package's folder; the SDK is imported from there, since this file
//! does not live under that node_modules.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ECHO_TEXT = "toolport bench: the same 64-byte text for every client and call.";

/** Parses `SDK_DIR WORKLOAD [options] -- SERVER...`. */
function parseArgs(argv) {
  const split = argv.indexOf("--");
  if (split < 2 || split === argv.length - 1) {
    throw new Error("usage: ts_client.mjs SDK_DIR WORKLOAD [--n N] [--concurrency C] -- SERVER...");
  }
  const [sdk, workload, ...options] = argv.slice(0, split);
  const args = {
    sdk, workload, n: 1000, concurrency: 32, arg: "text", transport: "stdio", portEnv: null,
    server: argv.slice(split + 1),
  };
  for (let i = 0; i < options.length; i += 2) {
    const value = Number(options[i + 1]);
    if (options[i] === "--n") args.n = value;
    else if (options[i] === "--concurrency") args.concurrency = value;
    else if (options[i] === "--arg") args.arg = options[i + 1];
    else if (options[i] === "--transport") args.transport = options[i + 1];
    else if (options[i] === "--port-env") args.portEnv = options[i + 1];
    else if (options[i] !== "--flavour") throw new Error(`unknown option ${options[i]}`);
  }
  return args;
}

/** The peak resident set size in KiB, from /proc/self/status. */
function peakRssKib() {
  const line = readFileSync("/proc/self/status", "utf8").split("\n").find((l) => l.startsWith("VmHWM:"));
  return line ? Number.parseInt(line.slice(6), 10) : 0;
}

/** A point in wall-clock and CPU time. */
function mark() {
  return { wall: process.hrtime.bigint(), cpu: process.cpuUsage() };
}

/** Seconds of wall-clock and CPU time since `start`. */
function since(start) {
  const cpu = process.cpuUsage(start.cpu);
  return {
    elapsed_s: Number(process.hrtime.bigint() - start.wall) / 1e9,
    cpu_s: (cpu.user + cpu.system) / 1e6,
  };
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS's pick for port 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Whether something accepts a TCP connection on 127.0.0.1:`port`. */
function accepts(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Spawns an HTTP server that listens on the port in env var `portEnv`; returns it and its URL. */
async function spawnOnFreePort(command, serverArgs, portEnv) {
  const port = await freePort();
  const child = spawn(command, serverArgs, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, [portEnv]: String(port) },
  });
  let exited = null;
  child.once("exit", (code, signal) => { exited = signal ?? code; });
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (exited !== null) throw new Error(`the HTTP server exited before listening: ${exited}`);
    if (Date.now() > deadline) throw new Error(`the HTTP server did not listen on port ${port} in 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const sdk = (path) => import(pathToFileURL(join(args.sdk, "dist", "esm", path)).href);
  const { Client } = await sdk("client/index.js");
  const { StdioClientTransport } = await sdk("client/stdio.js");

  let httpServer = null;
  const connect = async () => {
    const [command, ...serverArgs] = args.server;
    const client = new Client({ name: "toolport-bench", version: "0.1.0" });
    if (args.transport === "http") {
      const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
      let url;
      if (args.portEnv) {
        ({ child: httpServer, url } = await spawnOnFreePort(command, serverArgs, args.portEnv));
      } else {
        httpServer = spawn(command, serverArgs, { stdio: ["pipe", "pipe", "inherit"] });
        const lines = createInterface({ input: httpServer.stdout });
        [url] = await new Promise((resolve, reject) => {
          lines.once("line", (line) => resolve([line.trim()]));
          httpServer.once("error", reject);
        });
        lines.close();
        if (!url.startsWith("http://")) throw new Error(`the HTTP server printed no endpoint: ${url}`);
      }
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    } else {
      await client.connect(new StdioClientTransport({ command, args: serverArgs }));
    }
    return client;
  };
  const echo = async (client) => {
    const result = await client.callTool({ name: "echo", arguments: { [args.arg]: ECHO_TEXT } });
    if (result.isError) throw new Error("echo failed");
  };

  const samples = [];
  let measured;
  if (args.workload === "cold") {
    const start = mark();
    for (let i = 0; i < args.n; i++) {
      const t = process.hrtime.bigint();
      const client = await connect();
      await client.listTools();
      await client.close();
      samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    measured = since(start);
  } else {
    const client = await connect();
    await client.listTools();
    // Warm as many calls as will be in flight, so pooled connections are open.
    const inFlight = args.workload === "concurrent" ? args.concurrency : 1;
    await Promise.all(Array.from({ length: inFlight }, () => echo(client)));
    const start = mark();
    if (args.workload === "seq") {
      for (let i = 0; i < args.n; i++) await echo(client);
    } else if (args.workload === "concurrent") {
      const worker = async (share) => {
        for (let i = 0; i < share; i++) await echo(client);
      };
      const shares = Array.from({ length: args.concurrency }, (_, w) =>
        Math.floor(args.n / args.concurrency) + (w < args.n % args.concurrency ? 1 : 0));
      await Promise.all(shares.map(worker));
    } else if (args.workload === "discovery") {
      for (let i = 0; i < args.n; i++) await client.listTools();
    } else {
      throw new Error(`unsupported workload ${args.workload}`);
    }
    measured = since(start);
    await client.close();
    if (httpServer) {
      const exited = new Promise((resolve) => httpServer.once("exit", resolve));
      if (args.portEnv) process.kill(httpServer.pid, "SIGTERM");
      else httpServer.stdin.end();
      await exited;
    }
  }
  console.log(JSON.stringify({
    client: "typescript",
    flavour: "node",
    workload: args.workload,
    ops: args.n,
    ...measured,
    samples_ms: samples,
    rss_per_session_kib: null,
    peak_rss_kib: peakRssKib(),
  }));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`typescript bench client: ${error?.stack ?? error}`);
    process.exit(1);
  },
);
