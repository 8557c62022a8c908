import type { AgentResponse } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeAgent, makeAgentSummary, makeMcpServer, makeTool } from '../test/agents-fixture';
import { json } from '../test/billing-fixture';
import { makeModel, makeVoice } from '../test/catalogue-fixture';
import { renderApp } from '../test/render-app';
import { type ApiHandler, callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const PATH = '/app/conversational-ai/agents/ag1';
const sarah = makeVoice({ voice_id: 'pMsXgVXv3BLzUgSXRplE', name: 'Sarah' });
const models = [
  makeModel({ model_id: 'eleven_flash_v2_5', name: 'Flash' }),
  makeModel({ model_id: 'eleven_multilingual_v2', name: 'Multilingual' }),
];

/** The editor's routes over one stored agent; a PATCH merges nothing itself unless `patch` is given. */
function stubEditor(handlers: Record<string, ApiHandler> = {}, agent: AgentResponse = makeAgent()) {
  let stored = agent;
  const calls = stubWorkspaceApi({
    'GET /v1/convai/agents/ag1': () => json(stored),
    'GET /v1/voices': () => json({ voices: [sarah] }),
    'GET /v1/models': () => json(models),
    'PATCH /v1/convai/agents/ag1': ({ body }) => {
      const patch = body as { name?: string };
      stored = { ...stored, ...(patch.name ? { name: patch.name } : {}) };
      return json(stored);
    },
    'GET /v1/convai/tools': () => json({ tools: [makeTool()], next_cursor: null, has_more: false }),
    'GET /v1/convai/agents': () =>
      json({
        agents: [makeAgentSummary(), makeAgentSummary({ agent_id: 'ag2', name: 'Billing desk' })],
        next_cursor: null,
        has_more: false,
      }),
    'GET /v1/convai/knowledge-base': () =>
      json({
        documents: [
          {
            id: 'doc1',
            name: 'Opening hours',
            type: 'text',
            metadata: { created_at_unix_secs: 1, last_updated_at_unix_secs: 1, size_bytes: 10 },
            supported_usages: ['prompt', 'auto'],
            access_info: { is_creator: true, creator_name: 'Ada', creator_email: 'a@x', role: 'admin' },
            dependent_agents: [],
          },
        ],
        next_cursor: null,
        has_more: false,
      }),
    ...handlers,
  });
  return calls;
}

const saveButton = () => screen.getByRole('button', { name: 'Save changes' });

describe('the agent editor', () => {
  it('saves only what changed, says so, and explains what the built-in model is good for', async () => {
    const calls = stubEditor();
    renderApp(PATH);
    const name = await screen.findByLabelText('Name', {}, { timeout: 5000 });
    expect(screen.getByRole('note').textContent).toMatch(
      /The built-in model is small: fine for short answers from your knowledge base and simple tool calls; for open conversation point the server at a bigger model \(LLM_OPENAI_URL\)/,
    );
    expect(screen.getByText('All changes saved')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Helpdesk' } });
    fireEvent.change(screen.getByLabelText('Temperature'), { target: { value: '0.3' } });
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Agent/ }).textContent).toMatch(/Agent/);

    // Keyboard: the arrows move between tabs.
    fireEvent.keyDown(screen.getByRole('tab', { name: /^Agent/ }), { key: 'ArrowRight' });
    const voiceTab = screen.getByRole('tab', { name: /^Voice/ });
    expect(voiceTab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(voiceTab);
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'eleven_multilingual_v2' } });
    expect(screen.getByRole('tab', { name: /^Voice/ }).querySelector('[aria-label="changed"]')).toBeTruthy();

    fireEvent.click(saveButton());
    await waitFor(() => expect(screen.getByText('All changes saved')).toBeTruthy());
    expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')[0]?.body).toEqual({
      name: 'Helpdesk',
      conversation_config: {
        agent: { prompt: { temperature: 0.3 } },
        tts: { model_id: 'eleven_multilingual_v2' },
      },
    });
  }, 20_000);

  it('checks the fields with the contract before sending anything', async () => {
    const calls = stubEditor();
    renderApp(PATH);
    fireEvent.change(await screen.findByLabelText('Temperature', {}, { timeout: 5000 }), {
      target: { value: '1.5' },
    });
    fireEvent.click(saveButton());
    expect(await screen.findByText('The temperature is between 0 and 1.')).toBeTruthy();
    expect(screen.getByText('Some fields need a change before the agent can be saved.')).toBeTruthy();
    expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')).toHaveLength(0);
  }, 20_000);

  it('edits turn taking: eagerness, the check-in and the silence that ends a call, refusing a bad one', async () => {
    const calls = stubEditor();
    renderApp(PATH);
    fireEvent.change(await screen.findByLabelText('Turn eagerness', {}, { timeout: 5000 }), {
      target: { value: 'patient' },
    });
    fireEvent.change(screen.getByLabelText('End the call after silence (seconds)'), {
      target: { value: '700' },
    });
    fireEvent.click(saveButton());
    expect(await screen.findByText('The silence timeout is -1 (off) or up to 600 seconds.')).toBeTruthy();
    expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('End the call after silence (seconds)'), {
      target: { value: '60' },
    });
    fireEvent.change(screen.getByLabelText('Check in after silence (seconds)'), { target: { value: '-1' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')).toHaveLength(1));
    expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')[0]?.body).toEqual({
      conversation_config: {
        turn: { turn_eagerness: 'patient', silence_end_call_timeout: 60, turn_timeout: -1 },
      },
    });
  }, 20_000);

  it('shows the server’s 422 under its field, on its tab', async () => {
    stubEditor({
      'PATCH /v1/convai/agents/ag1': () => {
        const msg = 'The model eleven_multilingual_v2 cannot speak in a conversation; choose a fast model.';
        return json(
          {
            detail: {
              status: 'invalid_request',
              message: msg,
              errors: [{ loc: ['body', 'conversation_config', 'tts', 'model_id'], msg, type: 'value_error' }],
            },
          },
          422,
        );
      },
    });
    renderApp(`${PATH}?tab=voice`);
    fireEvent.change(await screen.findByLabelText('Model', {}, { timeout: 5000 }), {
      target: { value: 'eleven_multilingual_v2' },
    });
    fireEvent.click(screen.getByRole('tab', { name: /^Agent/ }));
    fireEvent.click(saveButton());
    // The editor goes to the tab that holds the field.
    const model = await screen.findByLabelText('Model');
    expect(screen.getByRole('tab', { name: /^Voice/ }).getAttribute('aria-selected')).toBe('true');
    expect(model.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText(/cannot speak in a conversation/).length).toBeGreaterThan(0);
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
  }, 20_000);

  it('asks before leaving with unsaved changes, and discards', async () => {
    stubEditor();
    const router = renderApp(PATH);
    fireEvent.change(await screen.findByLabelText('Name', {}, { timeout: 5000 }), { target: { value: 'X' } });
    fireEvent.click(screen.getByRole('link', { name: '← Agents' }));
    const ask = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe(PATH);

    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Support');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Y' } });
    fireEvent.click(screen.getByRole('link', { name: '← Agents' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave without saving',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/conversational-ai'));
  }, 20_000);

  it('attaches documents and tools, switches on system tools, and saves them whole', async () => {
    const calls = stubEditor();
    renderApp(`${PATH}?tab=knowledge-base`);
    fireEvent.click(await screen.findByRole('button', { name: 'Attach Opening hours' }, { timeout: 5000 }));
    expect(screen.getByRole('button', { name: 'Opening hours is attached' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('How Opening hours is used'), { target: { value: 'prompt' } });

    fireEvent.click(screen.getByRole('tab', { name: /^Tools/ }));
    fireEvent.click(await screen.findByRole('checkbox', { name: /order_status/ }));
    fireEvent.click(screen.getByRole('switch', { name: /End call/ }));
    fireEvent.click(saveButton());
    await waitFor(() => expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')).toHaveLength(1));
    const body = callsTo(calls, 'PATCH /v1/convai/agents/ag1')[0]?.body as {
      conversation_config: { agent: { prompt: Record<string, unknown> } };
    };
    expect(body.conversation_config.agent.prompt).toEqual({
      tool_ids: ['tool1'],
      knowledge_base: [{ type: 'text', name: 'Opening hours', id: 'doc1', usage_mode: 'prompt' }],
      built_in_tools: {
        end_call: expect.objectContaining({ name: 'end_call', params: { system_tool_type: 'end_call' } }),
      },
    });
  }, 20_000);

  it('gives the agent an MCP server in the Tools tab', async () => {
    const calls = stubEditor({
      'GET /v1/convai/mcp-servers': () => json({ mcp_servers: [makeMcpServer({ id: 'mcp1' })] }),
    });
    renderApp(`${PATH}?tab=tools`);
    const servers = await screen.findByRole('list', { name: 'MCP servers' }, { timeout: 5000 });
    fireEvent.click(within(servers).getByRole('checkbox', { name: /Orders/ }));
    fireEvent.click(saveButton());
    await waitFor(() => expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')).toHaveLength(1));
    const body = callsTo(calls, 'PATCH /v1/convai/agents/ag1')[0]?.body as {
      conversation_config: { agent: { prompt: Record<string, unknown> } };
    };
    expect(body.conversation_config.agent.prompt).toEqual({ mcp_server_ids: ['mcp1'] });
  }, 20_000);

  it('hands over to another agent when a condition holds', async () => {
    const calls = stubEditor();
    renderApp(`${PATH}?tab=tools`);
    fireEvent.click(await screen.findByRole('switch', { name: /Transfer to agent/ }, { timeout: 5000 }));
    const add = (await screen.findByRole('button', { name: 'Add transfer' })) as HTMLButtonElement;
    await waitFor(() => expect(add.disabled).toBe(false));
    fireEvent.click(add);
    const target = screen.getByLabelText('Transfer 1 to') as HTMLSelectElement;
    // The agent being edited is not offered.
    expect([...target.options].map((o) => o.textContent)).toEqual(['Billing desk']);
    fireEvent.change(screen.getByLabelText('Transfer 1 when'), {
      target: { value: 'The caller asks about a bill.' },
    });
    fireEvent.click(saveButton());
    await waitFor(() => expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')).toHaveLength(1));
    const body = callsTo(calls, 'PATCH /v1/convai/agents/ag1')[0]?.body as {
      conversation_config: { agent: { prompt: { built_in_tools: Record<string, { params: unknown }> } } };
    };
    expect(body.conversation_config.agent.prompt.built_in_tools.transfer_to_agent?.params).toEqual({
      system_tool_type: 'transfer_to_agent',
      transfers: [
        {
          agent_id: 'ag2',
          condition: 'The caller asks about a bill.',
          delay_ms: 0,
          transfer_message: null,
          enable_transferred_agent_first_message: false,
        },
      ],
    });
  }, 20_000);

  it('gives the widget’s embed code, and copies it', async () => {
    stubEditor();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderApp(`${PATH}?tab=widget`);
    const snippet = await screen.findByTestId('widget-snippet', {}, { timeout: 5000 });
    const expected = `<parla-convai agent-id="ag1"></parla-convai><script src="${window.location.origin}/convai-widget.js" async></script>`;
    expect(snippet.textContent).toBe(expected);
    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(expected));
  }, 20_000);

  it('edits security: a refused host, allowed origins, an override and retention', async () => {
    const calls = stubEditor();
    renderApp(`${PATH}?tab=security`);
    const host = await screen.findByLabelText('Add a host', {}, { timeout: 5000 });
    fireEvent.change(host, { target: { value: 'https://bad host' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByText(/An allowed origin is a host name/)).toBeTruthy();
    fireEvent.change(host, { target: { value: 'Shop.Example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(
      within(screen.getByRole('list', { name: 'Allowed origins' })).getByText('shop.example.com'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: /Require authentication/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'First message' }));
    fireEvent.click(screen.getByRole('switch', { name: /Keep conversations forever/ }));
    fireEvent.change(screen.getByLabelText('Retention (days)'), { target: { value: '90' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')).toHaveLength(1));
    expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')[0]?.body).toEqual({
      platform_settings: {
        auth: { enable_auth: true, allowlist: [{ hostname: 'shop.example.com' }] },
        overrides: { conversation_config_override: { agent: { first_message: true } } },
        privacy: { retention_days: 90 },
      },
    });
  }, 20_000);

  it('adds evaluation criteria and data items', async () => {
    const calls = stubEditor();
    renderApp(`${PATH}?tab=analysis`);
    fireEvent.click(await screen.findByRole('button', { name: 'Add criterion' }, { timeout: 5000 }));
    fireEvent.change(screen.getAllByLabelText('Name')[0] as HTMLElement, { target: { value: 'Solved' } });
    fireEvent.change(screen.getByLabelText('What counts as success'), {
      target: { value: 'The question was answered.' },
    });
    fireEvent.change(screen.getByLabelText('Identifier'), { target: { value: 'order number' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'The order number' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add data item' }));
    expect(screen.getByText(/An identifier is 1 to 64/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Identifier'), { target: { value: 'order_number' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add data item' }));
    expect(within(screen.getByRole('list', { name: 'Data items' })).getByText('order_number')).toBeTruthy();
    fireEvent.click(saveButton());
    await waitFor(() => expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')).toHaveLength(1));
    expect(callsTo(calls, 'PATCH /v1/convai/agents/ag1')[0]?.body).toEqual({
      platform_settings: {
        evaluation: {
          criteria: [
            {
              id: 'criterion_1',
              name: 'Solved',
              type: 'prompt',
              conversation_goal_prompt: 'The question was answered.',
              use_knowledge_base: false,
            },
          ],
        },
        data_collection: { order_number: { type: 'string', description: 'The order number', enum: null } },
      },
    });
  }, 20_000);

  it('says when the agent does not exist', async () => {
    stubEditor({
      'GET /v1/convai/agents/ag1': () =>
        json({ detail: { status: 'not_found', message: 'No agent ag1.' } }, 404),
    });
    renderApp(PATH);
    expect(await screen.findByText('Agent not found', {}, { timeout: 5000 })).toBeTruthy();
  }, 20_000);
});
