//! The TypeScript SDK's client (`@modelcontextprotocol/sdk` 1.x), as its README uses it, for
//! `cargo xtask bench`. It prints the same JSON result line as the Rust clients.
//!
//!   node ts_client.mjs SDK_DIR seq|concurrent|cold|discovery [--n N] [--concurrency C]
//!       [--arg NAME] [--transport stdio|http] [--port-env VAR] -- SERVER...
//!
//! It speaks MCP 2025-11-25 only. Over stdio it spawns SERVER with `StdioClientTransport`; with
//! `--transport http` it talks to it with `StreamableHTTPClientTransport`. The command line, the
//! workloads and the HTTP server's handling are `ts_common.mjs`'s.
//!
//! SDK_DIR is the installed package's folder; the SDK is imported from there, since this file
//! does not live under that node_modules.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { runBench } from "./ts_common.mjs";

runBench({
  client: "typescript",
  protocols: ["2025-11-25"],
  load: async (args) => {
    const sdk = (path) => import(pathToFileURL(join(args.sdk, "dist", "esm", path)).href);
    const { Client } = await sdk("client/index.js");
    // Only the transport the run uses is loaded, as an application would.
    const { StdioClientTransport, StreamableHTTPClientTransport } = args.transport === "http"
      ? await sdk("client/streamableHttp.js")
      : await sdk("client/stdio.js");
    return async (server) => {
      const client = new Client({ name: "toolport-bench", version: "0.1.0" });
      await client.connect(server.url
        ? new StreamableHTTPClientTransport(server.url)
        : new StdioClientTransport(server));
      return client;
    };
  },
});
