import { type InfiniteData, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getToastMessage } from '../../lib/http-error';
import { microphoneErrorMessage } from '../../lib/recording';
import {
  bytesToBase64,
  createSingleUseToken,
  type MicrophonePcm,
  openMicrophonePcm,
  socketUrl,
} from '../realtime';
import { listTranscripts } from './api/list-transcripts';
import { invalidateTranscripts, transcriptQueryKeys } from './api/transcript-query-keys';
import type { ListTranscriptsResponse } from './api/types';
import {
  applyTranscriptMessage,
  audioChunkMessage,
  DICTATION_CHUNK_MS,
  DICTATION_FINAL_WAIT_MS,
  DICTATION_LIST_REFRESH_MS,
  DICTATION_SAMPLE_RATE,
  type DictationText,
  dictationCloseMessage,
  dictationErrorMessage,
  dictationQuery,
  emptyDictation,
  findKeptDictation,
  isRealtimeError,
  parseRealtimeMessage,
  REALTIME_STT_PATH,
} from './live-dictation-rules';

/**
 * `connecting`: the token, the microphone and the socket are being opened; `listening`: audio flows;
 * `stopping`: the last audio was committed and its sentence is awaited; `done`: ended by the user;
 * `failed`: ended by an error (`error` says which).
 */
export type DictationStatus = 'idle' | 'connecting' | 'listening' | 'stopping' | 'done' | 'failed';

/**
 * Where the transcript of a finished dictation is (issue 26 item 7): `none` (nothing was kept), `saving`
 * (the server is saving it and the list does not hold it yet), `listed` (in the list, `id`), `late` (not in
 * the list after every look: the panel says so and offers to look again).
 */
export type KeptTranscript =
  | { state: 'none' }
  | { state: 'saving' }
  | { state: 'listed'; id: string }
  | { state: 'late' };

interface Session {
  socket: WebSocket | null;
  microphone: MicrophonePcm | null;
  timer: ReturnType<typeof setInterval> | null;
  finalWait: ReturnType<typeof setTimeout> | null;
  /** Ended: every later event of this session is ignored. */
  over: boolean;
  /** Messages made before the socket opened. */
  queued: string[];
  /** The session committed at least one sentence, so the server keeps it as a transcript. */
  kept: boolean;
  /** The server said `session_started`. */
  started: boolean;
  /** When the dictation started (unix seconds), and the transcripts listed then: to tell its own apart. */
  startedAtUnix: number;
  known: Set<string> | null;
}

/** The ids of the transcripts the unsearched list holds, or null when it was never loaded. */
function listedTranscriptIds(queryClient: QueryClient): Set<string> | null {
  const data = queryClient.getQueryData<InfiniteData<ListTranscriptsResponse>>(transcriptQueryKeys.list(''));
  if (!data) return null;
  return new Set(data.pages.flatMap((page) => page.transcripts.map((item) => item.transcription_id)));
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Live dictation (issue 20 item 6): a `realtime_scribe` single-use token, the microphone as 16 kHz PCM
 * chunks of 200 ms on the realtime transcription socket (sentences committed by the server's VAD), the
 * partial and committed text as they arrive. `stop` commits the last audio, waits briefly for its
 * sentence and closes; the transcripts list then loads again (the server keeps the session as one).
 */
export function useLiveDictation() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DictationStatus>('idle');
  const [text, setText] = useState<DictationText>(emptyDictation);
  const [error, setError] = useState<string | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const [kept, setKept] = useState<KeptTranscript>({ state: 'none' });
  const session = useRef<Session | null>(null);
  const mounted = useRef(true);
  /** The latest look for a kept transcript: an older one stops telling the panel. */
  const look = useRef(0);
  const lastKept = useRef<Pick<Session, 'known' | 'startedAtUnix'> | null>(null);

  /**
   * Looks for the dictation's transcript in the newest page of the list, at DICTATION_LIST_REFRESH_MS,
   * until it is there; then the list on the page loads again, and only then is it said to be in it.
   */
  const lookForTranscript = useCallback(
    async (dictation: Pick<Session, 'known' | 'startedAtUnix'>) => {
      lastKept.current = dictation;
      look.current += 1;
      const mine = look.current;
      const tell = (next: KeptTranscript) => {
        if (mounted.current && look.current === mine) setKept(next);
      };
      tell({ state: 'saving' });
      let waited = 0;
      for (const at of DICTATION_LIST_REFRESH_MS) {
        await wait(at - waited);
        waited = at;
        if (look.current !== mine) return;
        let id: string | null = null;
        try {
          const page = await listTranscripts('', undefined);
          id = findKeptDictation(page.transcripts, dictation.known, dictation.startedAtUnix);
        } catch {
          // A failed look is one of several: the next one may answer.
        }
        if (id) {
          await invalidateTranscripts(queryClient);
          tell({ state: 'listed', id });
          return;
        }
      }
      await invalidateTranscripts(queryClient);
      tell({ state: 'late' });
    },
    [queryClient],
  );

  /** Ends the session: microphone, timers and socket released, state set once. */
  const finish = useCallback(
    (current: Session, outcome: { failed: string } | 'done') => {
      if (current.over) return;
      current.over = true;
      if (current.timer) clearInterval(current.timer);
      if (current.finalWait) clearTimeout(current.finalWait);
      current.microphone?.close();
      const socket = current.socket;
      if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
      if (session.current === current) session.current = null;
      if (current.kept) {
        // The server keeps the session as a transcript after the socket ends: the list cannot hold it yet.
        const known = listedTranscriptIds(queryClient);
        if (known && current.known) for (const id of known) current.known.add(id);
        void lookForTranscript({ known: current.known ?? known, startedAtUnix: current.startedAtUnix });
      }
      if (!mounted.current) return;
      setLevel(0);
      setText((before) => ({ ...before, partial: '' }));
      if (outcome === 'done') {
        setStatus('done');
      } else {
        setError(outcome.failed);
        setStatus('failed');
      }
    },
    [queryClient, lookForTranscript],
  );

  const start = useCallback(async () => {
    if (session.current) return;
    const current: Session = {
      socket: null,
      microphone: null,
      timer: null,
      finalWait: null,
      over: false,
      queued: [],
      kept: false,
      started: false,
      startedAtUnix: Math.floor(Date.now() / 1000),
      known: listedTranscriptIds(queryClient),
    };
    session.current = current;
    look.current += 1;
    setKept({ state: 'none' });
    setStatus('connecting');
    setText(emptyDictation);
    setError(null);
    setElapsed(0);
    setLevel(0);

    const send = (message: string) => {
      const socket = current.socket;
      if (socket?.readyState === WebSocket.OPEN) socket.send(message);
      else current.queued.push(message);
    };

    try {
      current.microphone = await openMicrophonePcm({
        sampleRate: DICTATION_SAMPLE_RATE,
        chunkMs: DICTATION_CHUNK_MS,
        onChunk: (pcm) => {
          if (!current.over && !current.finalWait)
            send(JSON.stringify(audioChunkMessage(bytesToBase64(pcm), false)));
        },
        onLevel: (next) => {
          if (!current.over && mounted.current) setLevel(next);
        },
      });
    } catch (cause) {
      finish(current, { failed: microphoneErrorMessage(cause) });
      return;
    }
    if (current.over) {
      current.microphone.close();
      return;
    }

    let token: string;
    try {
      token = await createSingleUseToken('realtime_scribe');
    } catch (cause) {
      finish(current, { failed: getToastMessage(cause) });
      return;
    }
    if (current.over) return;

    const socket = new WebSocket(socketUrl(window.location.origin, REALTIME_STT_PATH, dictationQuery(token)));
    current.socket = socket;
    let previousType: string | undefined;
    socket.onopen = () => {
      for (const message of current.queued.splice(0)) socket.send(message);
    };
    socket.onmessage = (event: MessageEvent) => {
      if (current.over) return;
      const message = parseRealtimeMessage(event.data);
      if (!message) return;
      if (isRealtimeError(message)) {
        finish(current, { failed: dictationErrorMessage(message.message_type, message.error) });
        return;
      }
      if (message.message_type === 'session_started') {
        current.started = true;
        const startedAt = performance.now();
        current.timer = setInterval(() => setElapsed((performance.now() - startedAt) / 1000), 250);
        setStatus((before) => (before === 'connecting' ? 'listening' : before));
      } else if (message.message_type.startsWith('committed_transcript') && message.text.trim()) {
        current.kept = true;
      }
      const before = previousType;
      previousType = message.message_type;
      setText((shown) => applyTranscriptMessage(shown, message, before));
      // Stop is waiting for the last sentence: it has come.
      if (current.finalWait && message.message_type.startsWith('committed_transcript'))
        finish(current, 'done');
    };
    socket.onclose = (event: CloseEvent) => {
      if (current.over) return;
      if (current.finalWait) finish(current, 'done');
      else finish(current, { failed: dictationCloseMessage(event.code, current.started) });
    };
  }, [finish, queryClient]);

  const stop = useCallback(() => {
    const current = session.current;
    if (!current || current.over || current.finalWait) return;
    const socket = current.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      finish(current, 'done');
      return;
    }
    // The audio not yet sent, with the commit that makes the server transcribe what it holds.
    const rest = current.microphone?.drain() ?? new Uint8Array(0);
    current.microphone?.close();
    if (current.timer) clearInterval(current.timer);
    current.timer = null;
    setLevel(0);
    socket.send(JSON.stringify(audioChunkMessage(bytesToBase64(rest), true)));
    current.finalWait = setTimeout(() => finish(current, 'done'), DICTATION_FINAL_WAIT_MS);
    setStatus('stopping');
  }, [finish]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (session.current) finish(session.current, 'done');
    };
  }, [finish]);

  /** Looks for the last dictation's transcript again (after `late`). */
  const lookAgain = useCallback(() => {
    if (lastKept.current) void lookForTranscript(lastKept.current);
  }, [lookForTranscript]);

  return { status, text, error, elapsed, level, kept, start, stop, lookAgain };
}
