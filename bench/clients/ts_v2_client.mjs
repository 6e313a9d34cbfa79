//! The TypeScript SDK v2's client (`@modelcontextprotocol/client` 2.x), used plainly (`Client`,
//! `connect`, `listTools`, `callTool`), for `cargo xtask bench`. It prints the same JSON result
//! line as the Rust clients and `ts_client.mjs` (v1), whose command line it shares
//! (`ts_common.mjs`), plus `--protocol`:
//!
//!   node ts_v2_client.mjs SDK_DIR seq|concurrent|cold|discovery [--n N] [--concurrency C]
//!       [--arg NAME] [--transport stdio|http] [--port-env VAR]
//!       [--protocol 2025-11-25|2026-07-28|auto] -- SERVER...
//!
//! The protocol is the client's `versionNegotiation` mode: `2025-11-25` is `'legacy'` (the
//! default, the plain `initialize` handshake), `2026-07-28` is `{ pin: '2026-07-28' }`
//! (`server/discover` must offer it, no fallback), and `auto` probes with `server/discover` and
//! falls back to `initialize`. Both probing modes run the probe over stdio on a short-lived
//! sibling process spawned from the same parameters, then spawn the session's own: two server
//! processes per connect.
//!
//! SDK_DIR is the installed package's folder; the SDK is imported from there (through its
//! `exports`: `.` for the client and the HTTP transport, `./stdio` for the stdio transport),
//! since this file does not live under that node_modules.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { runBench } from "./ts_common.mjs";

/** Each `--protocol` value's `versionNegotiation.mode`. */
const NEGOTIATION_MODES = {
  "2025-11-25": "legacy",
  "2026-07-28": { pin: "2026-07-28" },
  auto: "auto",
};

/** Imports the ES module that the package in `dir` exports at `subpath` (`.`, `./stdio`). */
function importExport(dir, subpath) {
  const { exports } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return import(pathToFileURL(join(dir, exports[subpath].import.default)).href);
}

runBench({
  client: "typescript-v2",
  protocols: Object.keys(NEGOTIATION_MODES),
  load: async (args) => {
    const { Client, StreamableHTTPClientTransport } = await importExport(args.sdk, ".");
    // Only the transport the run uses is loaded, as an application would.
    const { StdioClientTransport } = args.transport === "http"
      ? {}
      : await importExport(args.sdk, "./stdio");
    const versionNegotiation = { mode: NEGOTIATION_MODES[args.protocol] };
    return async (server) => {
      const client = new Client({ name: "toolport-bench", version: "0.1.0" }, { versionNegotiation });
      await client.connect(server.url
        ? new StreamableHTTPClientTransport(server.url)
        : new StdioClientTransport(server));
      const version = client.getNegotiatedProtocolVersion();
      if (args.protocol !== "auto" && version !== args.protocol) {
        throw new Error(`asked for MCP ${args.protocol}, the session speaks ${version}`);
      }
      return client;
    };
  },
});
