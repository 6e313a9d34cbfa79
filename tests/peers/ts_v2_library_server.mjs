// A small library on the official TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4.0),
// which serves 2026-07-28 and 2025-11-25 alike: tools, a resource and a prompt, for the
// interop tests.
//
// - the tool `lookup(id)`: the text `book <id>: on shelf 3`;
// - the resource `library://catalog`: the titles joined by `; `, at first `Dune; Emma; Ulysses`;
//   the server declares the resources `subscribe` capability;
// - the tool `shelve(title)`: appends the title to the catalog and announces that
//   `library://catalog` changed: on 2025-11-25 a `notifications/resources/updated` to the
//   connections that sent `resources/subscribe` for it, on 2026-07-28 a change event for the
//   open `subscriptions/listen` streams that asked for it;
// - the tool `reserve(title)`: asks who is reading (a form with one string field, `name`) by
//   returning an `input_required` result, and answers `<title> reserved for <name>`. On
//   2025-11-25 the SDK's shim turns that result into an `elicitation/create` request, which
//   needs a connection that keeps state (stdio, or the sessions of `streamable-http-sessions`);
// - the prompt `recommend(genre)`: one user message naming the genre.
//
// Usage:
//   node ts_v2_library_server.mjs SDK_DIR stdio
//   node ts_v2_library_server.mjs SDK_DIR streamable-http PORT
//   node ts_v2_library_server.mjs SDK_DIR streamable-http-sessions PORT
//
// Both HTTP modes serve http://127.0.0.1:PORT/mcp (127.0.0.1 only) and answer 2026-07-28 with
// `createMcpHandler`. They differ on 2025-11-25: `streamable-http` keeps the handler's default
// stateless fallback (a fresh server per request, no session, no GET stream);
// `streamable-http-sessions` serves that version through sessions of the SDK's
// `WebStandardStreamableHTTPServerTransport`, with their GET streams.
//
// SDK_DIR is the package folder of `@modelcontextprotocol/server`.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdkDir, mode, port] = process.argv.slice(2);
const load = file => import(pathToFileURL(join(sdkDir, 'dist', file)).href);
const {
    McpServer,
    WebStandardStreamableHTTPServerTransport,
    acceptedContent,
    createMcpHandler,
    fromJsonSchema,
    inputRequired,
    inputResponse,
    isLegacyRequest,
} = await load('index.mjs');
const { serveStdio } = await load('stdio.mjs');

const CATALOG = 'library://catalog';
const titles = ['Dune', 'Emma', 'Ulysses'];

// The 2025-11-25 servers that sent `resources/subscribe`, each with the URIs it asked for.
const subscriptionsOf = new Map();

// Tells the 2026-07-28 listeners that `uri` changed; `server` is the instance serving the call.
// On stdio the entry turns the instance's notification into one per listen stream; the HTTP
// modes replace this with the handler's event bus.
let announceToListeners = (server, uri) => server.sendResourceUpdated({ uri });

async function announceToSubscribers(uri) {
    for (const [server, uris] of subscriptionsOf) {
        if (uris.has(uri)) await server.sendResourceUpdated({ uri });
    }
}

const READER_FORM = {
    message: 'Who is reading?',
    requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
    },
};

function library({ era }) {
    const server = new McpServer(
        { name: 'toolport-ts-v2-library', version: '1.0.0' },
        { capabilities: { resources: { subscribe: true } } },
    );
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
    server.registerTool(
        'shelve',
        {
            description: 'Adds a title to the catalog.',
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { title: { type: 'string' } },
                required: ['title'],
            }),
        },
        async ({ title }) => {
            titles.push(title);
            if (era === 'modern') await announceToListeners(server.server, CATALOG);
            else await announceToSubscribers(CATALOG);
            return { content: [{ type: 'text', text: `${title} shelved` }] };
        },
    );
    server.registerTool(
        'reserve',
        {
            description: 'Reserves a book for the reader, who is asked for.',
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { title: { type: 'string' } },
                required: ['title'],
            }),
        },
        async ({ title }, ctx) => {
            const answer = inputResponse(ctx.mcpReq.inputResponses, 'reader');
            if (answer.kind === 'missing') {
                return inputRequired({ inputRequests: { reader: inputRequired.elicit(READER_FORM) } });
            }
            const reader = acceptedContent(ctx.mcpReq.inputResponses, 'reader');
            if (typeof reader?.name !== 'string') {
                return { content: [{ type: 'text', text: `${title} not reserved: no reader` }], isError: true };
            }
            return { content: [{ type: 'text', text: `${title} reserved for ${reader.name}` }] };
        },
    );
    server.registerResource(
        'catalog',
        CATALOG,
        { mimeType: 'text/plain', description: 'Every title.' },
        async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: titles.join('; ') }] }),
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
    if (era === 'legacy') acceptSubscriptions(server.server);
    return server;
}

// `resources/subscribe` and `resources/unsubscribe`, which exist on 2025-11-25 only.
function acceptSubscriptions(server) {
    server.setRequestHandler('resources/subscribe', async request => {
        if (!subscriptionsOf.has(server)) {
            subscriptionsOf.set(server, new Set());
            server.onclose = () => subscriptionsOf.delete(server);
        }
        subscriptionsOf.get(server).add(request.params.uri);
        return {};
    });
    server.setRequestHandler('resources/unsubscribe', async request => {
        subscriptionsOf.get(server)?.delete(request.params.uri);
        return {};
    });
}

// 2025-11-25 traffic of `streamable-http-sessions`: one SDK transport and server per session.
function sessionfulLegacy() {
    const sessions = new Map();
    return async request => {
        const sessionId = request.headers.get('mcp-session-id');
        if (sessionId !== null) {
            const transport = sessions.get(sessionId);
            if (transport === undefined) return new Response('unknown session', { status: 404 });
            return transport.handleRequest(request);
        }
        if (request.method !== 'POST') return new Response('no session', { status: 400 });
        const transport = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: randomUUID,
            onsessioninitialized: id => sessions.set(id, transport),
            onsessionclosed: id => sessions.delete(id),
        });
        await library({ era: 'legacy' }).connect(transport);
        return transport.handleRequest(request);
    };
}

// Serves `fetch` on 127.0.0.1:PORT through node:http.
function listen(fetch) {
    createServer(async (req, res) => {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const gone = new AbortController();
        res.on('close', () => gone.abort());
        const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
            method: req.method,
            headers: req.headers,
            body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
            signal: gone.signal,
        });
        const response = await fetch(request);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) {
            try {
                for await (const chunk of response.body) res.write(chunk);
            } catch {
                // The client went away while the stream was open.
            }
        }
        res.end();
    }).listen(Number(port), '127.0.0.1');
}

if (mode === 'stdio') {
    serveStdio(library);
} else if (mode === 'streamable-http') {
    const handler = createMcpHandler(library);
    announceToListeners = (_server, uri) => handler.notify.resourceUpdated(uri);
    listen(handler.fetch);
} else if (mode === 'streamable-http-sessions') {
    const handler = createMcpHandler(library, { legacy: 'reject' });
    announceToListeners = (_server, uri) => handler.notify.resourceUpdated(uri);
    const legacy = sessionfulLegacy();
    listen(async request => ((await isLegacyRequest(request)) ? legacy(request) : handler.fetch(request)));
} else {
    console.error('usage: ts_v2_library_server.mjs SDK_DIR stdio|streamable-http|streamable-http-sessions [PORT]');
    process.exit(2);
}
