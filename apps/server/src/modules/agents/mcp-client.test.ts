import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServerConfig, McpTool } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMcpServerRow } from './agents.tables';
import { McpUnavailableError, mcpToolHash, openMcpSession, resultText } from './mcp-client';
import { approvalStatusesOf, offeredMcpTools } from './mcp-servers.service';

/*
 * The MCP client's own rules (issue 28 "MCP servers"): the hash an approval holds to, what of a result the
 * model reads, the approval policy, and the time limit on a server that takes the connection and says
 * nothing (on 127.0.0.1, with a short limit instead of the 10 s one).
 */

const lookup: McpTool = {
  name: 'order_lookup',
  description: 'Looks up an order.',
  inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};
const wipe: McpTool = { name: 'delete_everything', description: 'Deletes.', inputSchema: { type: 'object' } };

function server(config: Partial<McpServerConfig>): AgentMcpServerRow {
  return {
    id: 'mcp1',
    workspaceId: 'w',
    createdBy: null,
    name: 'Orders',
    createdAt: new Date(0),
    updatedAt: new Date(0),
    config: {
      approval_policy: 'require_approval_per_tool',
      tool_approval_hashes: [],
      transport: 'STREAMABLE_HTTP',
      url: 'https://mcp.example.com/mcp',
      secret_token: null,
      request_headers: {},
      name: 'Orders',
      description: '',
      force_pre_tool_speech: false,
      disable_interruptions: false,
      response_timeout_secs: 20,
      disable_compression: false,
      tool_config_overrides: [],
      ...config,
    },
  };
}

describe('mcpToolHash', () => {
  it('holds to the definition, whatever the order of its keys', () => {
    const reordered = {
      name: 'order_lookup',
      description: 'Looks up an order.',
      inputSchema: { required: ['order_id'], properties: { order_id: { type: 'string' } }, type: 'object' },
    };
    expect(mcpToolHash(reordered)).toBe(mcpToolHash(lookup));
    expect(mcpToolHash(lookup)).toMatch(/^[0-9a-f]{64}$/);
    expect(mcpToolHash({ ...lookup, description: 'Looks up an order and cancels it.' })).not.toBe(
      mcpToolHash(lookup),
    );
    expect(mcpToolHash({ ...lookup, inputSchema: { type: 'object' } })).not.toBe(mcpToolHash(lookup));
  });
});

describe('the approval policy', () => {
  const approved = (policy: 'auto_approved' | 'requires_approval', tool = lookup) => ({
    tool_name: tool.name,
    tool_hash: mcpToolHash(tool),
    approval_policy: policy,
  });

  it('offers every tool with auto_approve_all', () => {
    expect(offeredMcpTools(server({ approval_policy: 'auto_approve_all' }), [lookup, wipe])).toEqual([
      lookup,
      wipe,
    ]);
  });

  it('otherwise offers only tools approved as they are now, and none that needs a person each call', () => {
    for (const policy of ['require_approval_per_tool', 'require_approval_all'] as const) {
      expect(offeredMcpTools(server({ approval_policy: policy }), [lookup, wipe])).toEqual([]);
      const row = server({ approval_policy: policy, tool_approval_hashes: [approved('auto_approved')] });
      expect(offeredMcpTools(row, [lookup, wipe])).toEqual([lookup]);
      const changed = { ...lookup, description: 'Looks up an order and cancels it.' };
      expect(offeredMcpTools(row, [changed, wipe])).toEqual([]);
      expect(approvalStatusesOf(row, [changed, wipe]).map((s) => s.state)).toEqual([
        'needs_review',
        'not_approved',
      ]);
      const asking = server({
        approval_policy: policy,
        tool_approval_hashes: [approved('requires_approval')],
      });
      expect(offeredMcpTools(asking, [lookup])).toEqual([]);
    }
  });
});

describe('resultText', () => {
  it('reads the text parts, structured content when there are none, and caps what the model gets', () => {
    expect(
      resultText({
        content: [
          { type: 'text', text: 'Shipped.' },
          { type: 'image', data: 'xx', mimeType: 'image/png' },
          { type: 'text', text: 'Tuesday.' },
        ],
      }),
    ).toBe('Shipped.\n[image content]\nTuesday.');
    expect(resultText({ content: [], structuredContent: { eta: 'Tuesday' } })).toBe('{"eta":"Tuesday"}');
    expect(resultText({ content: [{ type: 'text', text: 'x'.repeat(100_000) }] })).toHaveLength(16 * 1024);
  });
});

describe('openMcpSession', () => {
  let silent: http.Server;
  let url: string;
  beforeAll(async () => {
    // Takes every request and never answers.
    silent = http.createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('gives up on a server that says nothing, over either transport', async () => {
    for (const transport of ['STREAMABLE_HTTP', 'SSE'] as const) {
      const started = performance.now();
      const opening = openMcpSession({ url: `${url}/mcp`, transport, headers: {}, allowPrivate: true }, 300);
      await expect(opening).rejects.toThrow(McpUnavailableError);
      await expect(opening).rejects.toThrow(/did not answer in time/);
      expect(performance.now() - started).toBeLessThan(3000);
    }
  });

  it('refuses a private address unless the operator allows it, before connecting', async () => {
    const opening = openMcpSession({
      url: `${url}/mcp`,
      transport: 'STREAMABLE_HTTP',
      headers: {},
      allowPrivate: false,
    });
    await expect(opening).rejects.toThrow(/private, loopback or reserved \(127\.0\.0\.1\)/);
  });
});
