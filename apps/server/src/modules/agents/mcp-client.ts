import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpTool, McpTransport } from '@parla/contracts';
import {
  AddressNotAllowedError,
  checkedLookup,
  resolvePublicAddresses,
} from '../../platform/network-address';

/*
 * A client of one MCP server (issue 28 "MCP servers"), through the official `@modelcontextprotocol/sdk`
 * over streamable HTTP or SSE. Every request it makes goes through `guardedFetch`: the host's addresses
 * are checked before and at the connection (the webhook tools' rule: private, loopback and reserved
 * addresses only when the operator allows them, AGENT_TOOL_ALLOW_PRIVATE_URLS), bodies are capped, and
 * every step has a time limit, so a slow or hostile server costs a conversation seconds, not the process.
 */

/** Connecting and listing the tools: the longest wait. */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;
/** What of a tool's answer the model is given (the webhook tools' cap). */
export const MCP_MAX_RESULT_CHARS = 16 * 1024;
/** The most bytes read of one HTTP answer (a tool list or a call's result). */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface McpEndpoint {
  url: string;
  transport: McpTransport;
  /** Headers with secrets already opened (the bearer token among them). */
  headers: Record<string, string>;
  allowPrivate: boolean;
}

/** Thrown when the server cannot be reached or answers nonsense: the message says why, for people. */
export class McpUnavailableError extends Error {
  override name = 'McpUnavailableError';
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/**
 * `fetch` for the MCP SDK over node:http with the address checks of webhook tools: the host is resolved
 * and checked first (an IP literal included, which `lookup` never sees), and the connection goes only to
 * a checked address. The answer streams (SSE needs that), cut off after MAX_RESPONSE_BYTES.
 */
export function guardedFetch(allowPrivate: boolean) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new McpUnavailableError(`The MCP server's address must be http(s), not ${url.protocol}`);
    await resolvePublicAddresses(url.hostname, allowPrivate);
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string')
      throw new Error('The MCP client sent a body that is not text.');
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: init?.method ?? 'GET',
          headers: { 'user-agent': 'Parla-Agents/1.0', ...headersOf(init) },
          lookup: checkedLookup(allowPrivate),
          ...(init?.signal ? { signal: init.signal } : {}),
        },
        (response) => {
          const status = response.statusCode ?? 502;
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) for (const v of value) headers.append(name, v);
            else if (value !== undefined) headers.set(name, value);
          }
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) response.destroy(new Error('The MCP server answered too much.'));
          });
          const empty = status === 204 || status === 304 || init?.method === 'HEAD';
          if (empty) response.resume();
          resolve(
            new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
              status,
              statusText: response.statusMessage ?? '',
              headers,
            }),
          );
        },
      );
      request.on('error', reject);
      request.end(body ?? undefined);
    });
  };
}

/** Why a connection failed, in words for the person who set the server up. */
export function describeMcpFailure(error: unknown, url: string): string {
  if (error instanceof AddressNotAllowedError)
    return (
      `The MCP server's address is private, loopback or reserved (${error.address}). This server calls ` +
      'only public addresses unless its operator sets AGENT_TOOL_ALLOW_PRIVATE_URLS=true.'
    );
  if (error instanceof McpUnavailableError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|fetch failed/i.test(message))
    return `The MCP server at ${host} could not be reached (${message.slice(0, 200)}).`;
  if (/timed? ?out|timeout/i.test(message))
    return `The MCP server at ${host} did not answer in time (${message.slice(0, 200)}).`;
  return `The MCP server at ${host} failed: ${message.slice(0, 300)}`;
}

/** An open session with one MCP server; `close` ends it. */
export interface McpSession {
  listTools(): Promise<McpTool[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

/**
 * Connects (the MCP handshake) within `connectTimeoutMs` (MCP_CONNECT_TIMEOUT_MS); throws
 * McpUnavailableError with why not. The whole of it is timed, the transport's start included: a server
 * that takes the connection and says nothing (an SSE stream that never opens) is given up on too.
 */
export async function openMcpSession(
  endpoint: McpEndpoint,
  connectTimeoutMs = MCP_CONNECT_TIMEOUT_MS,
): Promise<McpSession> {
  const url = new URL(endpoint.url);
  const fetch = guardedFetch(endpoint.allowPrivate);
  const requestInit: RequestInit = { headers: endpoint.headers };
  const transport =
    endpoint.transport === 'SSE'
      ? new SSEClientTransport(url, { requestInit, fetch })
      : new StreamableHTTPClientTransport(url, { requestInit, fetch });
  const client = new Client({ name: 'parla-agents', version: '1.0.0' });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${Math.round(connectTimeoutMs / 1000)} s`)),
      connectTimeoutMs,
    );
  });
  try {
    await Promise.race([client.connect(transport, { timeout: connectTimeoutMs }), timedOut]);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new McpUnavailableError(describeMcpFailure(error, endpoint.url));
  } finally {
    clearTimeout(timer);
  }
  return {
    async listTools() {
      try {
        const tools: McpTool[] = [];
        let cursor: string | undefined;
        // A server pages its list; a few pages are plenty for an agent (each tool costs prompt tokens).
        for (let page = 0; page < 10; page += 1) {
          const result = await client.listTools(cursor ? { cursor } : undefined, {
            timeout: connectTimeoutMs,
          });
          for (const tool of result.tools)
            tools.push({
              name: tool.name,
              ...(tool.title ? { title: tool.title } : {}),
              ...(tool.description !== undefined ? { description: tool.description } : {}),
              inputSchema: tool.inputSchema as Record<string, unknown>,
              ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
            });
          cursor = result.nextCursor;
          if (!cursor) break;
        }
        return tools;
      } catch (error) {
        throw new McpUnavailableError(describeMcpFailure(error, endpoint.url));
      }
    },
    async callTool(name, args, timeoutMs, signal) {
      try {
        const result = await client.callTool({ name, arguments: args }, undefined, {
          timeout: timeoutMs,
          ...(signal ? { signal } : {}),
        });
        return { text: resultText(result), isError: result.isError === true };
      } catch (error) {
        if (signal?.aborted) return { text: 'The call was cancelled.', isError: true };
        return { text: describeMcpFailure(error, endpoint.url), isError: true };
      }
    },
    close: () => client.close().catch(() => undefined),
  };
}

/** A tool result's content as text for the model: text parts, structured content, or what else came. */
export function resultText(result: Record<string, unknown>): string {
  const parts: string[] = [];
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string') parts.push(part.text);
    else if (part.type === 'resource' && typeof (part.resource as { text?: unknown })?.text === 'string')
      parts.push((part.resource as { text: string }).text);
    else if (typeof part.type === 'string') parts.push(`[${part.type} content]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  if (parts.length === 0 && 'toolResult' in result) parts.push(JSON.stringify(result.toolResult));
  return parts.join('\n').slice(0, MCP_MAX_RESULT_CHARS);
}

/** Sorted keys, so a definition hashes the same whatever order its JSON came in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  return value;
}

/**
 * The SHA-256 of a tool's definition (name, description, input schema): an approval holds for the tool
 * as it was approved; a server that changes what a tool says or takes needs it approved again.
 */
export function mcpToolHash(tool: {
  name: string;
  description?: string | undefined;
  inputSchema?: unknown;
}): string {
  return createHash('sha256')
    .update(
      JSON.stringify(
        canonical({
          name: tool.name,
          description: tool.description ?? '',
          input_schema: tool.inputSchema ?? {},
        }),
      ),
    )
    .digest('hex');
}
