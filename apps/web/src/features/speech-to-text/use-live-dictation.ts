import { useQueryClient } from '@tanstack/react-query';
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
import { invalidateTranscripts } from './api/transcript-query-keys';
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
}

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
  const session = useRef<Session | null>(null);
  const mounted = useRef(true);

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
        // The server keeps the session as a transcript after the socket ends (its audio is encoded
        // first, seconds on a busy machine), so the list is asked for again a few times.
        for (const delay of DICTATION_LIST_REFRESH_MS) {
          setTimeout(() => void invalidateTranscripts(queryClient), delay);
        }
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
    [queryClient],
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
    };
    session.current = current;
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
  }, [finish]);

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

  return { status, text, error, elapsed, level, start, stop };
}
