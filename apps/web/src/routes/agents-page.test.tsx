import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeAgent, makeAgentSummary } from '../test/agents-fixture';
import { json } from '../test/billing-fixture';
import { makeModel, makeVoice } from '../test/catalogue-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const page = (agents: ReturnType<typeof makeAgentSummary>[], next: string | null = null) =>
  json({ agents, next_cursor: next, has_more: next !== null });

describe('/app/conversational-ai', () => {
  it('invites to create the first agent, creates one from a template and opens its editor', async () => {
    const calls = stubWorkspaceApi({
      'GET /v1/convai/agents': () => page([]),
      'POST /v1/convai/agents/create': () => json({ agent_id: 'ag9' }),
      'GET /v1/convai/agents/ag9': () => json(makeAgent({ agent_id: 'ag9', name: 'Front desk' })),
      'GET /v1/voices': () =>
        json({ voices: [makeVoice({ voice_id: 'pMsXgVXv3BLzUgSXRplE', name: 'Sarah' })] }),
      'GET /v1/models': () => json([makeModel({ model_id: 'eleven_flash_v2_5', name: 'Flash' })]),
    });
    const router = renderApp('/app/conversational-ai');
    expect(await screen.findByText('No agents yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Create your first agent' }));

    const receptionist = await screen.findByRole('radio', { name: /Receptionist/ });
    fireEvent.click(receptionist);
    expect((screen.getByLabelText('Agent name') as HTMLInputElement).value).toBe('Receptionist');
    fireEvent.change(screen.getByLabelText('Agent name'), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create agent' }));
    expect(screen.getByText('Give the agent a name.')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/agents/create')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Agent name'), { target: { value: 'Front desk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create agent' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/conversational-ai/agents/ag9'));
    const sent = callsTo(calls, 'POST /v1/convai/agents/create')[0]?.body as {
      name: string;
      conversation_config: { agent: { first_message: string; prompt: { prompt: string } } };
    };
    expect(sent.name).toBe('Front desk');
    expect(sent.conversation_config.agent.first_message).toMatch(/front desk/);
    expect(sent.conversation_config.agent.prompt.prompt).toMatch(/receptionist/);
    expect(await screen.findByRole('heading', { name: 'Front desk' })).toBeTruthy();
  }, 20_000);

  it('searches, pages, duplicates and deletes after asking', async () => {
    let agents = [makeAgentSummary(), makeAgentSummary({ agent_id: 'ag2', name: 'Tutor' })];
    const calls = stubWorkspaceApi({
      'GET /v1/convai/agents': ({ query }) => {
        const term = query.get('search');
        if (query.get('cursor') === 'c2')
          return page([makeAgentSummary({ agent_id: 'ag3', name: 'Receptionist' })]);
        const found = term ? agents.filter((a) => a.name.toLowerCase().includes(term.toLowerCase())) : agents;
        return page(found, term ? null : 'c2');
      },
      'POST /v1/convai/agents/ag1/duplicate': () => {
        agents = [makeAgentSummary({ agent_id: 'ag4', name: 'Support (copy)' }), ...agents];
        return json({ agent_id: 'ag4' });
      },
      'DELETE /v1/convai/agents/ag2': () => {
        agents = agents.filter((a) => a.agent_id !== 'ag2');
        return json({ status: 'ok' });
      },
    });
    renderApp('/app/conversational-ai/agents');
    const list = await screen.findByRole('list', { name: 'Agents' }, { timeout: 5000 });
    expect(within(list).getByRole('link', { name: 'Support' }).getAttribute('href')).toBe(
      '/app/conversational-ai/agents/ag1',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByText('Receptionist')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search agents'), { target: { value: 'tut' } });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Support' })).toBeNull(), {
      timeout: 3000,
    });
    expect(callsTo(calls, 'GET /v1/convai/agents').at(-1)?.query.get('search')).toBe('tut');
    fireEvent.change(screen.getByLabelText('Search agents'), { target: { value: 'zzz' } });
    expect(await screen.findByText('No agents match', {}, { timeout: 3000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await screen.findByRole('link', { name: 'Support' }, { timeout: 3000 });

    fireEvent.keyDown(screen.getByRole('button', { name: 'Actions for Support' }), { key: 'Enter' });
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Duplicate' }));
    expect(await screen.findByRole('link', { name: 'Support (copy)' })).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/agents/ag1/duplicate')[0]?.body).toEqual({
      name: 'Support (copy)',
    });

    fireEvent.keyDown(screen.getByRole('button', { name: 'Actions for Tutor' }), { key: 'Enter' });
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Tutor?' });
    expect(callsTo(calls, 'DELETE /v1/convai/agents/ag2')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete agent' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Tutor' })).toBeNull());
    expect(callsTo(calls, 'DELETE /v1/convai/agents/ag2')).toHaveLength(1);
  }, 20_000);

  it('shows the error of a list that failed, and loads it again', async () => {
    let fail = true;
    stubWorkspaceApi({
      'GET /v1/convai/agents': () =>
        fail
          ? json({ detail: { status: 'forbidden', message: 'Your role may not list agents.' } }, 403)
          : page([makeAgentSummary()]),
    });
    renderApp('/app/conversational-ai');
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    expect(screen.getByText('Your role may not list agents.')).toBeTruthy();
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByRole('link', { name: 'Support' })).toBeTruthy();
  }, 20_000);
});
