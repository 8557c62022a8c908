import type { ListMcpToolsResponse, McpServerResponse } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeMcpServer, makeSecret } from '../test/agents-fixture';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const PATH = '/app/conversational-ai/integrations';
const LOOKUP = {
  name: 'order_lookup',
  description: 'Looks up an order.',
  inputSchema: { type: 'object', properties: { order_id: { type: 'string' } } },
};

describe('/app/conversational-ai/integrations', () => {
  it('adds an MCP server with a token from a secret, shows its tools and approves one', async () => {
    let servers: McpServerResponse[] = [];
    let approved = false;
    const calls = stubWorkspaceApi({
      'GET /v1/convai/mcp-servers': () => json({ mcp_servers: servers }),
      'GET /v1/convai/secrets': () =>
        json({ secrets: [makeSecret({ secret_id: 'sec1', name: 'MCP token' })], next_cursor: null }),
      'POST /v1/convai/mcp-servers': ({ body }) => {
        const { config } = body as { config: { url: string } };
        if (config.url.includes('10.0.0.5'))
          return apiError(
            422,
            'invalid_request',
            "The MCP server's URL points at a private, loopback or reserved address (10.0.0.5).",
          );
        servers = [makeMcpServer({ id: 'mcp1' })];
        return json(servers[0]);
      },
      'GET /v1/convai/mcp-servers/mcp1/tools': () =>
        json({
          success: true,
          tools: [LOOKUP],
          tool_approval_statuses: [
            { tool_id: 'mcp:mcp1:order_lookup', state: approved ? 'up_to_date' : 'not_approved' },
          ],
          error_message: null,
        } satisfies ListMcpToolsResponse),
      'POST /v1/convai/mcp-servers/mcp1/tool-approvals': () => {
        approved = true;
        return json(servers[0]);
      },
    });
    renderApp(PATH);
    expect(await screen.findByText('No MCP servers yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add your first MCP server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add MCP server' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    expect(within(dialog).getByText('Name the server.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Orders' } });
    fireEvent.change(within(dialog).getByLabelText('Server URL'), {
      target: { value: 'http://10.0.0.5/mcp' },
    });
    await waitFor(() =>
      expect((within(dialog).getByLabelText('Bearer token') as HTMLSelectElement).options).toHaveLength(2),
    );
    fireEvent.change(within(dialog).getByLabelText('Bearer token'), { target: { value: 'sec1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    expect(
      await within(dialog).findByText(/private, loopback or reserved address \(10\.0\.0\.5\)/),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Server URL'), {
      target: { value: 'https://mcp.example.com/mcp' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add server' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'POST /v1/convai/mcp-servers').at(-1)?.body).toEqual({
      config: {
        name: 'Orders',
        url: 'https://mcp.example.com/mcp',
        transport: 'STREAMABLE_HTTP',
        approval_policy: 'require_approval_per_tool',
        secret_token: { secret_id: 'sec1' },
      },
    });

    const list = await screen.findByRole('list', { name: 'MCP servers' });
    fireEvent.click(within(list).getByRole('button', { name: 'Tools' }));
    const tools = await screen.findByRole('list', { name: 'Tools of Orders' });
    expect(within(tools).getByText('Not approved')).toBeTruthy();
    fireEvent.click(within(tools).getByRole('button', { name: 'Approve order_lookup' }));
    expect(await within(tools).findByText('Offered to agents')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/mcp-servers/mcp1/tool-approvals')[0]?.body).toEqual({
      tool_name: 'order_lookup',
      tool_description: 'Looks up an order.',
      input_schema: LOOKUP.inputSchema,
      approval_policy: 'auto_approved',
    });
  }, 20_000);

  it('says plainly when the server cannot be reached, and deletes a server after asking', async () => {
    let servers = [makeMcpServer({ id: 'mcp1' })];
    stubWorkspaceApi({
      'GET /v1/convai/mcp-servers': () => json({ mcp_servers: servers }),
      'GET /v1/convai/mcp-servers/mcp1/tools': () =>
        json({
          success: false,
          tools: [],
          tool_approval_statuses: [],
          error_message: 'The MCP server at mcp.example.com could not be reached (ECONNREFUSED).',
        }),
      'DELETE /v1/convai/mcp-servers/mcp1': () => {
        servers = [];
        return json({ status: 'ok' });
      },
    });
    renderApp(PATH);
    const list = await screen.findByRole('list', { name: 'MCP servers' }, { timeout: 5000 });
    fireEvent.click(within(list).getByRole('button', { name: 'Tools' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be reached/);
    fireEvent.click(within(list).getByRole('button', { name: 'Delete Orders' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Orders?' })).getByRole('button', {
        name: 'Delete server',
      }),
    );
    expect(await screen.findByText('No MCP servers yet')).toBeTruthy();
  }, 20_000);
});
