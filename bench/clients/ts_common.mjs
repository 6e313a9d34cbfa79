//! What the TypeScript SDK bench clients (`ts_client.mjs` for v1, `ts_v2_client.mjs` for v2)
//! share: the command line, the workloads, the HTTP server's start and stop, and the JSON result
//! line the Rust clients print too. Each client script only says how its SDK opens a session.
//!
//!   node CLIENT.mjs SDK_DIR seq|concurrent|cold|discovery [--n N] [--concurrency C]
//!       [--arg NAME] [--transport stdio|http] [--port-env VAR] [--protocol VERSION] -- SERVER...
//!
//! With `--transport http`, SERVER is spawned, prints its endpoint on its first stdout line, and
//! is talked to over Streamable HTTP; it is a child process, so its CPU time is not in this one's.
//! With `--port-env VAR` it is instead given a free port in env var VAR, waited for until the port
//! accepts connections, talked to at `http://127.0.0.1:<port>/mcp`, and stopped with SIGTERM to
//! its PID (as the Rust clients do, `bench/src/http.rs`). `--protocol` takes the MCP versions
//! the client script lists; the first one is the default.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { createInterface } from "node:readline";

const ECHO_TEXT = "toolport bench: the same 64-byte text for every client and call.";

/** Parses `SDK_DIR WORKLOAD [options] -- SERVER...`; `--protocol` must be one of `protocols`. */
function parseArgs(argv, protocols) {
  const split = argv.indexOf("--");
  if (split < 2 || split === argv.length - 1) {
    throw new Error("usage: CLIENT.mjs SDK_DIR WORKLOAD [--n N] [--concurrency C] -- SERVER...");
  }
  const [sdk, workload, ...options] = argv.slice(0, split);
  const args = {
    sdk, workload, n: 1000, concurrency: 32, arg: "text", transport: "stdio", portEnv: null,
    protocol: protocols[0], server: argv.slice(split + 1),
  };
  for (let i = 0; i < options.length; i += 2) {
    const value = Number(options[i + 1]);
    if (options[i] === "--n") args.n = value;
    else if (options[i] === "--concurrency") args.concurrency = value;
    else if (options[i] === "--arg") args.arg = options[i + 1];
    else if (options[i] === "--transport") args.transport = options[i + 1];
    else if (options[i] === "--port-env") args.portEnv = options[i + 1];
    else if (options[i] === "--protocol") args.protocol = options[i + 1];
    else if (options[i] !== "--flavour") throw new Error(`unknown option ${options[i]}`);
  }
  if (!protocols.includes(args.protocol)) {
    throw new Error(`unsupported protocol ${args.protocol}: this client speaks ${protocols.join(", ")}`);
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

/** Spawns an HTTP server that prints its endpoint on its first stdout line; returns it and its URL. */
async function spawnPrintingEndpoint(command, serverArgs) {
  const child = spawn(command, serverArgs, { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    lines.once("line", (line) => resolve(line.trim()));
    child.once("error", reject);
  });
  lines.close();
  if (!url.startsWith("http://")) throw new Error(`the HTTP server printed no endpoint: ${url}`);
  return { child, url };
}

/** Stops an HTTP server spawned by `spawnOnFreePort` (SIGTERM) or `spawnPrintingEndpoint` (EOF). */
async function stopHttpServer(child, portEnv) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if (portEnv) process.kill(child.pid, "SIGTERM");
  else child.stdin.end();
  await exited;
}

/** Runs `args.workload` with sessions from `connect`, and returns its measurements. */
async function measure(args, connect) {
  let httpServer = null;
  const open = async () => {
    const [command, ...serverArgs] = args.server;
    if (args.transport !== "http") return connect({ command, args: serverArgs });
    let url;
    ({ child: httpServer, url } = args.portEnv
      ? await spawnOnFreePort(command, serverArgs, args.portEnv)
      : await spawnPrintingEndpoint(command, serverArgs));
    return connect({ url: new URL(url) });
  };
  const echo = async (client) => {
    const result = await client.callTool({ name: "echo", arguments: { [args.arg]: ECHO_TEXT } });
    if (result.isError) throw new Error("echo failed");
  };

  const samples = [];
  if (args.workload === "cold") {
    const start = mark();
    for (let i = 0; i < args.n; i++) {
      const t = process.hrtime.bigint();
      const client = await open();
      await client.listTools();
      await client.close();
      samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return { ...since(start), samples_ms: samples };
  }
  const client = await open();
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
  const measured = since(start);
  await client.close();
  if (httpServer) await stopHttpServer(httpServer, args.portEnv);
  return { ...measured, samples_ms: samples };
}

/**
 * Runs one bench client process and exits: parses the command line (`--protocol` one of
 * `protocols`), asks `load(args)` for the SDK's `connect`, runs the workload with it, and prints
 * the result line as `client`. `connect` opens one session, to `{ command, args }` over stdio or
 * to `{ url }` over Streamable HTTP, and returns the SDK's client.
 */
export function runBench({ client, protocols, load }) {
  const main = async () => {
    const args = parseArgs(process.argv.slice(2), protocols);
    const measured = await measure(args, await load(args));
    console.log(JSON.stringify({
      client,
      flavour: "node",
      workload: args.workload,
      ops: args.n,
      ...measured,
      rss_per_session_kib: null,
      peak_rss_kib: peakRssKib(),
    }));
  };
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(`${client} bench client: ${error?.stack ?? error}`);
      process.exit(1);
    },
  );
}
