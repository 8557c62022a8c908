/**
 * An MCP server for tests (issue 28 "MCP servers"), built with the official `@modelcontextprotocol/sdk`
 * and listening on 127.0.0.1: streamable HTTP at `/mcp` (stateless, a server per request) and SSE at
 * `/sse` (+ `/messages`). Its tools are what the test registers; it records every call and the
 * Authorization header it was sent. It holds no Parla rule.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpTestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  calls: { tool: string; args: Record<string, unknown> }[];
  authorizations: (string | undefined)[];
  /** Changes what order_lookup says of itself (an approved tool that changed needs approving again). */
  describeLookup(description: string): void;
  close(): Promise<void>;
}

export async function startMcpTestServer(): Promise<McpTestServer> {
  const calls: McpTestServer['calls'] = [];
  const authorizations: McpTestServer['authorizations'] = [];
  let lookupDescription = 'Looks up an order by its number and says where it is.';
  const build = () => {
    const server = new McpServer({ name: 'parla-test-orders', version: '1.0.0' });
    server.registerTool(
      'order_lookup',
      { description: lookupDescription, inputSchema: { order_id: z.string().describe('The order number') } },
      async ({ order_id }) => {
        calls.push({ tool: 'order_lookup', args: { order_id } });
        return { content: [{ type: 'text', text: `Order ${order_id} left the warehouse on Monday.` }] };
      },
    );
    server.registerTool(
      'delete_everything',
      { description: 'Deletes every order.', inputSchema: {} },
      async () => {
        calls.push({ tool: 'delete_everything', args: {} });
        return { content: [{ type: 'text', text: 'Deleted.' }] };
      },
    );
    return server;
  };
  const sse = new Map<string, SSEServerTransport>();
  const http_ = http.createServer(async (request, response) => {
    authorizations.push(request.headers.authorization);
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    try {
      if (path === '/mcp') {
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const server = build();
        response.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(request, response);
      } else if (path === '/sse' && request.method === 'GET') {
        const transport = new SSEServerTransport('/messages', response);
        sse.set(transport.sessionId, transport);
        response.on('close', () => sse.delete(transport.sessionId));
        await build().connect(transport);
      } else if (path === '/messages' && request.method === 'POST') {
        const id = new URL(request.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
        const transport = sse.get(id);
        if (!transport) {
          response.writeHead(404).end('no session');
          return;
        }
        await transport.handlePostMessage(request, response);
      } else response.writeHead(404).end();
    } catch (error) {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    }
  });
  http_.listen(0, '127.0.0.1');
  await new Promise((resolve) => http_.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(http_.address() as AddressInfo).port}`,
    calls,
    authorizations,
    describeLookup(description) {
      lookupDescription = description;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http_.closeAllConnections();
        http_.close(() => resolve());
      }),
  };
}
