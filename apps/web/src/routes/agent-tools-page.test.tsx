import type { ToolResponse } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSecret, makeTool } from '../test/agents-fixture';
import { json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const toolsPage = (tools: ToolResponse[]) => json({ tools, next_cursor: null, has_more: false });

describe('/app/conversational-ai/tools', () => {
  it('creates a webhook tool with a secret header and described parameters, checked before sending', async () => {
    const tools: ToolResponse[] = [];
    const calls = stubWorkspaceApi({
      'GET /v1/convai/tools': () => toolsPage(tools),
      'GET /v1/convai/secrets': () => json({ secrets: [makeSecret()], next_cursor: null }),
      'POST /v1/convai/tools': ({ body }) => {
        const tool = makeTool({
          id: 't9',
          tool_config: (body as { tool_config: ToolResponse['tool_config'] }).tool_config,
        });
        tools.push(tool);
        return json(tool);
      },
    });
    renderApp('/app/conversational-ai/tools');
    expect(await screen.findByText('No tools yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create your first tool' }));
    const dialog = await screen.findByRole('dialog', { name: 'New tool' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create tool' }));
    expect(within(dialog).getByText(/A tool name is 1 to 64/)).toBeTruthy();
    expect(within(dialog).getByText('Describe when the agent should use the tool.')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/tools')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'order_status' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), {
      target: { value: 'Looks up an order.' },
    });
    fireEvent.change(within(dialog).getByLabelText('URL'), {
      target: { value: 'https://api.example.com/orders/{order_id}' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add header' }));
    fireEvent.change(within(dialog).getByLabelText('Header 1 name'), { target: { value: 'Authorization' } });
    fireEvent.change(within(dialog).getByLabelText('Header 1 source'), { target: { value: 'secret' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create tool' }));
    expect(within(dialog).getByText('Choose the secret each secret header sends.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Header 1 secret'), { target: { value: 'sec1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create tool' }));
    expect(within(dialog).getByText(/\{order_id\} needs a path parameter of that name/)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add parameter' }));
    fireEvent.change(within(dialog).getByLabelText('Parameter 1 name'), { target: { value: 'order_id' } });
    fireEvent.change(within(dialog).getByLabelText('Parameter 1 goes in'), { target: { value: 'path' } });
    fireEvent.change(within(dialog).getByLabelText('Parameter 1 description'), {
      target: { value: 'The order number the caller reads out' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create tool' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = callsTo(calls, 'POST /v1/convai/tools')[0]?.body as {
      tool_config: { api_schema: Record<string, unknown> };
    };
    expect(sent.tool_config.api_schema.request_headers).toEqual({ Authorization: { secret_id: 'sec1' } });
    expect(sent.tool_config.api_schema.path_params_schema).toEqual({
      order_id: { type: 'string', description: 'The order number the caller reads out' },
    });
    expect(await screen.findByRole('list', { name: 'Tools' })).toBeTruthy();
    expect(screen.getByText('GET api.example.com/orders/{order_id}')).toBeTruthy();
  }, 20_000);

  it('shows the server’s refusal under the URL, edits a client tool, and deletes a tool in use after asking twice', async () => {
    let tools = [
      makeTool(),
      makeTool({
        id: 'tool2',
        tool_config: {
          type: 'client',
          name: 'show_map',
          description: 'Shows a map.',
          disable_interruptions: false,
          force_pre_tool_speech: false,
          response_timeout_secs: 20,
          expects_response: false,
          parameters: null,
        },
      }),
    ];
    let forced = false;
    const calls = stubWorkspaceApi({
      'GET /v1/convai/tools': () => toolsPage(tools),
      'GET /v1/convai/secrets': () => json({ secrets: [], next_cursor: null }),
      'PATCH /v1/convai/tools/tool1': () => {
        const msg = 'The tool URL points at a private address (10.0.0.1).';
        return json(
          {
            detail: {
              status: 'invalid_request',
              message: msg,
              errors: [{ loc: ['body', 'tool_config', 'api_schema', 'url'], msg, type: 'value_error' }],
            },
          },
          422,
        );
      },
      'PATCH /v1/convai/tools/tool2': ({ body }) =>
        json(makeTool({ id: 'tool2', tool_config: (body as ToolResponse).tool_config })),
      'DELETE /v1/convai/tools/tool2': ({ query }) => {
        if (query.get('force') !== 'true')
          return json(
            { detail: { status: 'conflict', message: 'The tool is used by the agent Support.' } },
            409,
          );
        forced = true;
        tools = tools.filter((t) => t.id !== 'tool2');
        return json({ status: 'ok' });
      },
    });
    renderApp('/app/conversational-ai/tools');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit order_status' }, { timeout: 5000 }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit order_status' });
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'http://10.0.0.1/orders' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save tool' }));
    expect(await within(dialog).findByText(/private address/)).toBeTruthy();
    expect(within(dialog).getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit show_map' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit show_map' });
    expect(within(dialog).queryByLabelText('URL')).toBeNull();
    fireEvent.click(within(dialog).getByRole('switch', { name: /Wait for the result/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save tool' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'PATCH /v1/convai/tools/tool2')[0]?.body).toMatchObject({
      tool_config: { type: 'client', name: 'show_map', expects_response: true },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Delete show_map' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete show_map?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete tool' }));
    fireEvent.click(await within(confirm).findByRole('button', { name: 'Delete it from the agents too' }));
    await waitFor(() => expect(forced).toBe(true));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Edit show_map' })).toBeNull());
    expect(callsTo(calls, 'DELETE /v1/convai/tools/tool2')).toHaveLength(2);
  }, 20_000);
});
