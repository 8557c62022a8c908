import type { ConversationDetail } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fireCanPlay, getAudio, stubMedia } from '../features/player/player-test-kit';
import { apiError, json } from '../test/billing-fixture';
import { makeAgentSummary, makeConversationDetail, makeConversationSummary } from '../test/convai-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

const agents = () =>
  json({
    agents: [makeAgentSummary(), makeAgentSummary({ agent_id: 'a2', name: 'Sales line' })],
    next_cursor: null,
    has_more: false,
  });

afterEach(cleanUpWorkspaceTest);

describe('/app/conversational-ai/history', () => {
  it('lists conversations, filters by agent and day, and says when nothing matches', async () => {
    const calls = stubWorkspaceApi({
      'GET /v1/convai/agents': agents,
      'GET /v1/convai/conversations': ({ query }) =>
        json({
          conversations: query.get('agent_id') === 'a2' ? [] : [makeConversationSummary()],
          next_cursor: null,
          has_more: false,
        }),
    });
    const router = renderApp('/app/conversational-ai/history');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const row = within(list).getByRole('listitem');
    expect(within(row).getByText('Conversation with Front desk')).toBeTruthy();
    expect(within(row).getByText('Done')).toBeTruthy();
    expect(within(row).getByText(/· 1:35 · 4 messages$/)).toBeTruthy();

    fireEvent.change(await screen.findByLabelText('Agent'), { target: { value: 'a2' } });
    expect(await screen.findByText('No conversations match')).toBeTruthy();
    expect(callsTo(calls, 'GET /v1/convai/conversations').at(-1)?.query.get('agent_id')).toBe('a2');

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01' } });
    await waitFor(() => {
      const last = callsTo(calls, 'GET /v1/convai/conversations').at(-1)?.query;
      expect(last?.get('call_start_after_unix')).toBe(String(new Date(2026, 2, 1).getTime() / 1000));
      expect(last?.get('call_start_before_unix')).toBe(String(new Date(2026, 2, 2).getTime() / 1000));
    });

    fireEvent.click(screen.getByRole('button', { name: 'Show all conversations' }));
    fireEvent.click(await screen.findByRole('link', { name: 'Conversation with Front desk' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/conversational-ai/history/c1'));
  }, 20_000);

  it('invites to talk to an agent when there is no conversation yet, with links to the other pages', async () => {
    stubWorkspaceApi({
      'GET /v1/convai/agents': agents,
      'GET /v1/convai/conversations': () => json({ conversations: [], next_cursor: null, has_more: false }),
    });
    renderApp('/app/conversational-ai/history');
    const empty = (await screen.findByText('No conversations yet')).parentElement as HTMLElement;
    expect(within(empty).getByRole('link', { name: 'Talk to an agent' }).getAttribute('href')).toBe(
      '/app/conversational-ai/talk-to',
    );
    const nav = screen.getByRole('navigation', { name: 'Conversational AI' });
    expect(within(nav).getByRole('link', { name: 'Call history' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Knowledge base' })).toBeTruthy();
  }, 20_000);
});

describe('/app/conversational-ai/history/:conversationId', () => {
  it('shows the metadata plainly, the transcript with times and tool calls, and takes feedback', async () => {
    let conversation: ConversationDetail = makeConversationDetail();
    const calls = stubWorkspaceApi({
      'GET /v1/convai/conversations/c1': () => json(conversation),
      'POST /v1/convai/conversations/c1/feedback': ({ body }) => {
        const feedback = (body as { feedback: 'like' | 'dislike' | null }).feedback;
        conversation = makeConversationDetail({
          metadata: {
            feedback: { overall_score: feedback, likes: feedback === 'like' ? 1 : 0, dislikes: 0 },
          },
        });
        return json({});
      },
    });
    renderApp('/app/conversational-ai/history/c1');
    expect(await screen.findByRole('heading', { name: 'Conversation with Front desk' })).toBeTruthy();
    const about = screen.getByRole('region', { name: 'About this conversation' });
    expect(within(about).getByText('1:35')).toBeTruthy();
    expect(within(about).getByText('2 minutes')).toBeTruthy();
    expect(
      within(about).getByText(
        'Answered from the knowledge base: no language model is configured. Each answer is the passage that best matches what was said.',
      ),
    ).toBeTruthy();
    expect(within(about).getByText('The user ended the conversation.')).toBeTruthy();
    // Not a phone call: no numbers.
    expect(within(about).queryByText('Phone call')).toBeNull();
    expect(screen.getByRole('link', { name: 'Front desk' }).getAttribute('href')).toBe(
      '/app/conversational-ai/agents/a1',
    );

    const turns = within(screen.getByRole('region', { name: 'Transcript' })).getAllByRole('listitem');
    expect(turns).toHaveLength(3);
    expect(within(turns[1] as HTMLElement).getByText('User')).toBeTruthy();
    expect(within(turns[1] as HTMLElement).getByRole('button', { name: 'Play from 0:04' })).toBeTruthy();
    const tool = within(turns[2] as HTMLElement)
      .getByText(/Tool call:/)
      .closest('details') as HTMLDetailsElement;
    expect(tool.open).toBe(false);
    expect(within(tool).getByText(/check_calendar/)).toBeTruthy();
    expect(within(tool).getByText(/— answered/)).toBeTruthy();
    expect(within(tool).getByText('{\n  "day": "monday"\n}', { normalizer: (s) => s })).toBeTruthy();

    const like = screen.getByRole('button', { name: 'Like' });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(like);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Like' }).getAttribute('aria-pressed')).toBe('true'),
    );
    expect(callsTo(calls, 'POST /v1/convai/conversations/c1/feedback')[0]?.body).toEqual({
      feedback: 'like',
    });
    // A second press takes it back.
    fireEvent.click(screen.getByRole('button', { name: 'Like' }));
    await waitFor(() => expect(callsTo(calls, 'POST /v1/convai/conversations/c1/feedback')).toHaveLength(2));
    expect(callsTo(calls, 'POST /v1/convai/conversations/c1/feedback')[1]?.body).toEqual({ feedback: null });
  }, 20_000);

  it('says which numbers a phone call was between', async () => {
    stubWorkspaceApi({
      'GET /v1/convai/conversations/c1': () =>
        json(
          makeConversationDetail({
            metadata: {
              phone_call: {
                type: 'twilio',
                direction: 'outbound',
                phone_number_id: 'pn1',
                agent_number: '+14155550100',
                external_number: '+14155550199',
                stream_sid: 'MZ1',
                call_sid: 'CA1',
              },
            },
          }),
        ),
    });
    renderApp('/app/conversational-ai/history/c1');
    const about = await screen.findByRole('region', { name: 'About this conversation' }, { timeout: 5000 });
    expect(within(about).getByText('Phone call')).toBeTruthy();
    expect(within(about).getByText(/Called \+14155550199 from \+14155550100/)).toBeTruthy();
  });

  it('says a language model answered, and deletes the conversation after asking', async () => {
    const calls = stubWorkspaceApi({
      'GET /v1/convai/conversations/c1': () =>
        json(
          makeConversationDetail({
            has_audio: false,
            metadata: {
              response_mode: 'llm',
              response_mode_reason: 'gemma-3-270m',
              termination_reason: null,
            },
          }),
        ),
      'DELETE /v1/convai/conversations/c1': () => json({}),
      'GET /v1/convai/agents': agents,
      'GET /v1/convai/conversations': () => json({ conversations: [], next_cursor: null, has_more: false }),
    });
    const router = renderApp('/app/conversational-ai/history/c1');
    expect(await screen.findByText('Answered by a language model (gemma-3-270m).')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Play recording' })).toBeNull();
    expect(screen.getByText(/No recording was kept/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete conversation' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this conversation?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/conversational-ai/history'));
    expect(callsTo(calls, 'DELETE /v1/convai/conversations/c1')).toHaveLength(1);
  }, 20_000);

  it('plays the recording in the bottom player from a turn’s time', async () => {
    stubMedia();
    const calls = stubWorkspaceApi({
      'GET /v1/convai/conversations/c1': () => json(makeConversationDetail()),
      'GET /v1/convai/conversations/c1/audio': () =>
        new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'audio/mpeg' } }),
    });
    renderApp('/app/conversational-ai/history/c1');
    fireEvent.click(await screen.findByRole('button', { name: 'Play from 1:05' }));
    await waitFor(() => expect(callsTo(calls, 'GET /v1/convai/conversations/c1/audio')).toHaveLength(1));
    await waitFor(() => expect(getAudio().getAttribute('src')).toBe('blob:test/1'));
    fireCanPlay(95);
    await waitFor(() => expect(getAudio().currentTime).toBeCloseTo(65));
    const bar = await screen.findByRole('region', { name: 'Audio player' });
    expect(within(bar).getByText('Conversation with Front desk')).toBeTruthy();
  }, 20_000);

  it('says a conversation that does not exist was not found', async () => {
    stubWorkspaceApi({
      'GET /v1/convai/conversations/nope': () =>
        apiError(404, 'not_found', 'The conversation nope was not found.'),
    });
    renderApp('/app/conversational-ai/history/nope');
    expect(await screen.findByRole('heading', { name: 'Conversation not found' })).toBeTruthy();
  }, 20_000);
});
