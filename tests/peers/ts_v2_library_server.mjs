// A small library on the official TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4.0),
// which serves 2026-07-28 and 2025-11-25 alike: a tool, a resource and a prompt, for the
// interop tests.
//
// - the tool `lookup(id)`: the text `book <id>: on shelf 3`;
// - the resource `library://catalog`: the text `Dune; Emma; Ulysses`;
// - the prompt `recommend(genre)`: one user message naming the genre.
//
// Usage:
//   node ts_v2_library_server.mjs SDK_DIR stdio
//   node ts_v2_library_server.mjs SDK_DIR streamable-http PORT   # http://127.0.0.1:PORT/mcp
//
// SDK_DIR is the package folder of `@modelcontextprotocol/server`. The HTTP server listens on
// 127.0.0.1 only.

import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdkDir, mode, port] = process.argv.slice(2);
const load = file => import(pathToFileURL(join(sdkDir, 'dist', file)).href);
const { McpServer, createMcpHandler, fromJsonSchema } = await load('index.mjs');
const { serveStdio } = await load('stdio.mjs');

function library() {
    const server = new McpServer({ name: 'toolport-ts-v2-library', version: '1.0.0' });
    server.registerTool(
        'lookup',
        {
            description: 'Finds a book by its id.',
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { id: { type: 'string' } },
                required: ['id'],
            }),
        },
        async ({ id }) => ({ content: [{ type: 'text', text: `book ${id}: on shelf 3` }] }),
    );
    server.registerResource(
        'catalog',
        'library://catalog',
        { mimeType: 'text/plain', description: 'Every title.' },
        async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Dune; Emma; Ulysses' }] }),
    );
    server.registerPrompt(
        'recommend',
        {
            description: 'Asks for a recommendation.',
            argsSchema: fromJsonSchema({
                type: 'object',
                properties: { genre: { type: 'string' } },
                required: ['genre'],
            }),
        },
        async ({ genre }) => ({
            messages: [{ role: 'user', content: { type: 'text', text: `Recommend a ${genre} book.` } }],
        }),
    );
    return server;
}

if (mode === 'stdio') {
    serveStdio(library);
} else if (mode === 'streamable-http') {
    const handler = createMcpHandler(library);
    createServer(async (req, res) => {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
            method: req.method,
            headers: req.headers,
            body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        });
        const response = await handler.fetch(request);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) {
            for await (const chunk of response.body) res.write(chunk);
        }
        res.end();
    }).listen(Number(port), '127.0.0.1');
} else {
    console.error('usage: ts_v2_library_server.mjs SDK_DIR stdio|streamable-http [PORT]');
    process.exit(2);
}
