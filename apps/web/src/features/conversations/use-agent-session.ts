import { Conversation, type Mode, type Status } from '@elevenlabs/client';
// The client's audio worklets, served by this app (Vite emits them as assets): by default the client
// loads them from blob: URLs, which the server's Content-Security-Policy (script-src 'self') refuses —
// "Failed to load the rawAudioProcessor worklet module" in Chromium until they came from here.
import audioConcatProcessor from '@elevenlabs/client/worklets/audioConcatProcessor.js?url';
import rawAudioProcessor from '@elevenlabs/client/worklets/rawAudioProcessor.js?url';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getSignedUrl } from './api/get-signed-url';
import { describeDisconnect, describeSessionError, describeStartError } from './conversation-rules';

/** One line of the live transcript. */
export interface LiveLine {
  id: number;
  role: 'user' | 'agent';
  text: string;
  /** Typed in the text box rather than said. */
  typed?: boolean;
}

export type SessionPhase = 'idle' | 'connecting' | 'connected' | 'ended';

export interface AgentSessionState {
  phase: SessionPhase;
  /** While connected: whether the agent is speaking or listening. */
  mode: Mode;
  lines: LiveLine[];
  muted: boolean;
  conversationId: string | null;
  /** What went wrong, in plain words. */
  error: string | null;
  /** How it ended when not by the user's "End" nor with an error ("The agent ended the conversation."). */
  endNote: string | null;
}

const initial: AgentSessionState = {
  phase: 'idle',
  mode: 'listening',
  lines: [],
  muted: false,
  conversationId: null,
  error: null,
  endNote: null,
};

type Session = Awaited<ReturnType<typeof Conversation.startSession>>;

/**
 * A spoken conversation with one agent in the browser (issue 28 item 7 "talk-to"), through the published
 * `@elevenlabs/client` pointed at this server: a signed URL from the API, then the client's WebSocket
 * session (`connectionType: 'websocket'`; its default, WebRTC through LiveKit, is not served here). The
 * microphone and the speaker are the client's; this keeps the status, the transcript and the errors.
 */
export function useAgentSession(agentId: string | null) {
  const [state, setState] = useState<AgentSessionState>(initial);
  const session = useRef<Session | null>(null);
  /** Bumped by each start and by leaving: a start that finishes after it was abandoned is ended at once. */
  const generation = useRef(0);
  const nextLine = useRef(0);

  const addLine = useCallback((line: Omit<LiveLine, 'id'>) => {
    nextLine.current += 1;
    const id = nextLine.current;
    setState((s) => ({ ...s, lines: [...s.lines, { ...line, id }] }));
  }, []);

  const start = useCallback(async () => {
    if (!agentId || session.current) return;
    generation.current += 1;
    const mine = generation.current;
    setState({ ...initial, phase: 'connecting' });
    try {
      const signedUrl = await getSignedUrl(agentId);
      if (mine !== generation.current) return;
      const started = await Conversation.startSession({
        signedUrl,
        connectionType: 'websocket',
        workletPaths: { rawAudioProcessor, audioConcatProcessor },
        onConnect: ({ conversationId }) => {
          if (mine === generation.current) setState((s) => ({ ...s, phase: 'connected', conversationId }));
        },
        onModeChange: ({ mode }) => {
          if (mine === generation.current) setState((s) => ({ ...s, mode }));
        },
        onStatusChange: ({ status }: { status: Status }) => {
          if (mine !== generation.current) return;
          if (status === 'connected') setState((s) => ({ ...s, phase: 'connected' }));
        },
        onMessage: ({ message, role }) => {
          if (mine === generation.current && message.trim()) addLine({ role, text: message });
        },
        onError: (message, context) => {
          if (mine === generation.current)
            setState((s) => ({ ...s, error: describeSessionError(message, context) }));
        },
        onDisconnect: (details) => {
          if (mine !== generation.current) return;
          session.current = null;
          const said = describeDisconnect(details);
          setState((s) => ({
            ...s,
            phase: 'ended',
            mode: 'listening',
            // A protocol error said before the close is the clearer one: keep it.
            error: said?.isError ? (s.error ?? said.text) : s.error,
            endNote: said && !said.isError ? said.text : null,
          }));
        },
      });
      if (mine !== generation.current) {
        void started.endSession();
        return;
      }
      session.current = started;
      setState((s) => ({ ...s, phase: s.phase === 'ended' ? 'ended' : 'connected' }));
    } catch (error) {
      if (mine !== generation.current) return;
      session.current = null;
      setState((s) => ({ ...s, phase: 'ended', error: describeStartError(error) }));
    }
  }, [agentId, addLine]);

  const end = useCallback(async () => {
    const current = session.current;
    if (!current) {
      // Still connecting: abandon the start.
      generation.current += 1;
      setState((s) => ({ ...s, phase: s.phase === 'connecting' ? 'idle' : s.phase }));
      return;
    }
    session.current = null;
    await current.endSession();
    setState((s) => ({ ...s, phase: 'ended', mode: 'listening' }));
  }, []);

  const setMuted = useCallback((muted: boolean) => {
    session.current?.setMicMuted(muted);
    setState((s) => ({ ...s, muted }));
  }, []);

  const sendText = useCallback(
    (text: string) => {
      const trimmed = text.trim();
      if (!trimmed || !session.current) return false;
      session.current.sendUserMessage(trimmed);
      addLine({ role: 'user', text: trimmed, typed: true });
      return true;
    },
    [addLine],
  );

  /** Back to the start, for another agent or another go. */
  const reset = useCallback(() => {
    if (!session.current) setState(initial);
  }, []);

  // Leaving the page (or picking another agent) ends the conversation: the microphone is let go.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new agent is the reason to end the old one.
  useEffect(
    () => () => {
      generation.current += 1;
      const current = session.current;
      session.current = null;
      void current?.endSession();
    },
    [agentId],
  );

  return { state, start, end, setMuted, sendText, reset };
}
