import type { PartialOptions } from '@elevenlabs/client';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json } from '../test/billing-fixture';
import { makeAgentSummary } from '../test/convai-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

/*
 * The published client is mocked: it needs a microphone, an AudioContext and a WebSocket server, none of
 * which jsdom has. The test drives its callbacks as the real client calls them against the server (the
 * socket itself is covered by the server's integration tests and the e2e journey in Chromium).
 */
const session = {
  endSession: vi.fn(async () => {}),
  setMicMuted: vi.fn(),
  sendUserMessage: vi.fn(),
};
const startSession = vi.fn<(options: PartialOptions) => Promise<typeof session>>();
vi.mock('@elevenlabs/client', () => ({
  Conversation: { startSession: (o: PartialOptions) => startSession(o) },
}));

const SIGNED = 'ws://localhost/v1/convai/conversation?agent_id=a1&conversation_signature=s1';

function stubApi(signed: () => Response = () => json({ signed_url: SIGNED })) {
  return stubWorkspaceApi({
    'GET /v1/convai/agents': () =>
      json({
        agents: [makeAgentSummary(), makeAgentSummary({ agent_id: 'a2', name: 'Sales line' })],
        next_cursor: null,
        has_more: false,
      }),
    'GET /v1/convai/conversation/get-signed-url': signed,
  });
}

/** The options the page gave the client, once it started a session. */
async function startedWith(): Promise<PartialOptions> {
  await waitFor(() => expect(startSession).toHaveBeenCalledTimes(1));
  return startSession.mock.calls[0]?.[0] as PartialOptions;
}

beforeEach(() => {
  startSession.mockReset();
  session.endSession.mockClear();
  session.setMicMuted.mockClear();
  session.sendUserMessage.mockClear();
});
afterEach(cleanUpWorkspaceTest);

describe('/app/conversational-ai/talk-to', () => {
  it('starts a WebSocket session from a signed URL, shows the status and transcript, mutes, types and ends', async () => {
    startSession.mockImplementation(async (options) => {
      options.onStatusChange?.({ status: 'connecting' });
      options.onConnect?.({ conversationId: 'conv_1' });
      return session;
    });
    const calls = stubApi();
    renderApp('/app/conversational-ai/talk-to?agent_id=a1');
    const picker = (await screen.findByLabelText('Agent')) as HTMLSelectElement;
    await waitFor(() => expect(picker.value).toBe('a1'));
    expect(screen.getByText('Not started')).toBeTruthy();
    expect((screen.getByLabelText('Message to the agent') as HTMLInputElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Start conversation' }));
    const options = await startedWith();
    expect(callsTo(calls, 'GET /v1/convai/conversation/get-signed-url')[0]?.query.get('agent_id')).toBe('a1');
    expect(options).toMatchObject({ signedUrl: SIGNED, connectionType: 'websocket' });
    // Same-origin worklets: the server's CSP refuses the client's default blob: ones.
    expect(options.workletPaths?.rawAudioProcessor).toMatch(/rawAudioProcessor\.js/);
    expect(options.workletPaths?.audioConcatProcessor).toMatch(/audioConcatProcessor\.js/);
    expect(await screen.findByText('Listening')).toBeTruthy();
    expect(picker.disabled).toBe(true);

    act(() => {
      options.onMessage?.({ message: 'Hello! How can I help?', role: 'agent', source: 'ai' });
      options.onModeChange?.({ mode: 'speaking' });
    });
    const transcript = screen.getByRole('list', { name: 'Live transcript' });
    expect(within(transcript).getByText('Hello! How can I help?')).toBeTruthy();
    expect(within(transcript).getByText('Front desk')).toBeTruthy();
    expect(screen.getByText('Agent speaking')).toBeTruthy();
    act(() => {
      options.onModeChange?.({ mode: 'listening' });
      options.onMessage?.({ message: 'When do you open?', role: 'user', source: 'user' });
    });
    expect(within(transcript).getByText('When do you open?')).toBeTruthy();

    const mute = screen.getByRole('button', { name: 'Mute microphone' });
    expect(mute.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(mute);
    expect(session.setMicMuted).toHaveBeenCalledWith(true);
    expect(screen.getByRole('button', { name: 'Unmute microphone' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByText('Listening (you are muted)')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Message to the agent'), {
      target: { value: '  Are you open on Sunday? ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(session.sendUserMessage).toHaveBeenCalledWith('Are you open on Sunday?');
    expect(within(transcript).getByText('Are you open on Sunday?')).toBeTruthy();
    expect(within(transcript).getByText('You (typed)')).toBeTruthy();
    expect((screen.getByLabelText('Message to the agent') as HTMLInputElement).value).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'End conversation' }));
    await waitFor(() => expect(session.endSession).toHaveBeenCalledTimes(1));
    act(() => options.onDisconnect?.({ reason: 'user' }));
    expect(await screen.findByText('Ended')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Open this conversation in the history' }).getAttribute('href'),
    ).toBe('/app/conversational-ai/history/conv_1');
    expect(screen.getByRole('button', { name: 'Start again' })).toBeTruthy();
  }, 20_000);

  it('says in plain words that the microphone is blocked', async () => {
    startSession.mockRejectedValue(new DOMException('Permission denied', 'NotAllowedError'));
    stubApi();
    renderApp('/app/conversational-ai/talk-to?agent_id=a1');
    fireEvent.click(await screen.findByRole('button', { name: 'Start conversation' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/The microphone is blocked for this site/);
  }, 20_000);

  it('shows the API’s refusal of the signed URL and never opens a session', async () => {
    stubApi(() => apiError(404, 'not_found', 'The agent a9 was not found in this workspace.'));
    renderApp('/app/conversational-ai/talk-to?agent_id=a9');
    fireEvent.click(await screen.findByRole('button', { name: 'Start conversation' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The agent a9 was not found in this workspace.',
    );
    expect(startSession).not.toHaveBeenCalled();
  }, 20_000);

  it('says when the minutes run out during the conversation, and keeps that over the close reason', async () => {
    startSession.mockImplementation(async (options) => {
      options.onConnect?.({ conversationId: 'conv_2' });
      return session;
    });
    stubApi();
    renderApp('/app/conversational-ai/talk-to');
    // No agent chosen yet: nothing to start.
    expect(
      ((await screen.findByRole('button', { name: 'Start conversation' })) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.change(await screen.findByLabelText('Agent'), { target: { value: 'a2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start conversation' }));
    const options = await startedWith();
    act(() => {
      options.onError?.('Server error: The workspace’s conversation minutes are used up.', {
        errorType: 'quota_exceeded',
      });
      options.onDisconnect?.({
        reason: 'error',
        message: 'The minutes are used up.',
        context: { type: 'close', code: 1008 },
        closeCode: 1008,
        closeReason: 'The minutes are used up.',
      });
    });
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /conversation minutes for this period are used up/,
    );
    expect(screen.getByText('Ended')).toBeTruthy();
  }, 20_000);

  it('ends the session when the page is left', async () => {
    startSession.mockImplementation(async (options) => {
      options.onConnect?.({ conversationId: 'conv_3' });
      return session;
    });
    stubApi();
    const router = renderApp('/app/conversational-ai/playground?agent_id=a1');
    fireEvent.click(await screen.findByRole('button', { name: 'Start conversation' }));
    await screen.findByText('Listening');
    await act(() => router.navigate('/app/conversational-ai/history'));
    await waitFor(() => expect(session.endSession).toHaveBeenCalledTimes(1));
  }, 20_000);
});
