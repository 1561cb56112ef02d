import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServerConfig } from '../../src/core/mcp';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createServer } = require('../fixtures/mcp-server.js') as {
  createServer: () => import('@modelcontextprotocol/sdk/server/index.js').Server;
};

/** The stdio test server's settings: the fixture script run with this process's node. */
export function stdioServer(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { command: process.execPath, args: [path.resolve(__dirname, '..', 'fixtures', 'mcp-server.js')], ...extra };
}

/** The same tools over streamable HTTP (stateless) on 127.0.0.1 and a free port. */
export async function startHttpServer(): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const httpServer = http.createServer((req, res) => {
    state.requests += 1;
    const server = createServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => server.close()));
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.end());
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const port = (httpServer.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

/** The same tools over the older SSE transport: GET /sse opens a stream, POST /messages carries requests. */
export async function startSseServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, SSEServerTransport>();
  const httpServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      void createServer().connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && transport) return void transport.handlePostMessage(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const port = (httpServer.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
