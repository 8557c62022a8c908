import type { TtsSocketAudio, TtsSocketError } from '@parla/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getToastMessage } from '../../lib/http-error';
import { createSingleUseToken, socketUrl } from '../realtime';
import {
  charactersSpoken,
  decodePcmAudio,
  nextTextToSend,
  SPEAK_AS_YOU_TYPE_FORMAT,
  SPEAK_AS_YOU_TYPE_INACTIVITY_S,
  SPEAK_AS_YOU_TYPE_RATE,
  scheduleBuffer,
  speakAsYouTypeErrorMessage,
  streamInputPath,
  TYPING_PAUSE_MS,
} from './speak-as-you-type-rules';
import type { EditableVoiceSettings } from './tts-rules';

/**
 * `connecting`: token and socket being opened; `on`: the socket waits for text; `finishing`: turned off,
 * the last text is being spoken; `off`; `failed` (with `error`).
 */
export type SpeakAsYouTypeStatus = 'off' | 'connecting' | 'on' | 'finishing' | 'failed';

interface Session {
  socket: WebSocket | null;
  audio: AudioContext;
  /** Where the typed text sent so far ends. */
  sentUpTo: number;
  /** When the next buffer may start, on the audio clock. */
  nextStart: number;
  pause: ReturnType<typeof setTimeout> | null;
  over: boolean;
}

export interface SpeakAsYouTypeOptions {
  text: string;
  voiceId: string | undefined;
  modelId: string | undefined;
  settings: EditableVoiceSettings;
}

/**
 * "Speak as I type" on the text-to-speech page (issue 20 item 6): while on, a `tts_websocket` single-use
 * token opens `/v1/text-to-speech/{voice_id}/stream-input` (22.05 kHz PCM); the words typed after it was
 * turned on are sent as they are completed (`try_trigger_generation`), flushed at a sentence's end or a
 * pause of a second; the audio messages play back to back through Web Audio. Turning it off sends what is
 * left and `{"text": ""}`, and lets the last audio play out.
 */
export function useSpeakAsYouType({ text, voiceId, modelId, settings }: SpeakAsYouTypeOptions) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SpeakAsYouTypeStatus>('off');
  const [error, setError] = useState<string | null>(null);
  const [spoken, setSpoken] = useState(0);
  const [audioSeconds, setAudioSeconds] = useState(0);
  const [speaking, setSpeaking] = useState(false);
  const session = useRef<Session | null>(null);
  const latest = useRef({ text, settings });
  latest.current = { text, settings };
  const speakingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const mounted = useRef(true);

  const end = useCallback(
    (current: Session, failure: string | null) => {
      if (current.over) return;
      current.over = true;
      if (current.pause) clearTimeout(current.pause);
      const socket = current.socket;
      if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
      if (session.current === current) session.current = null;
      // The audio already scheduled plays out; then the context goes.
      const left = Math.max(0, current.nextStart - current.audio.currentTime);
      setTimeout(() => void current.audio.close().catch(() => undefined), left * 1000 + 100);
      // What was spoken was charged.
      void queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
      if (!mounted.current) return;
      setError(failure);
      setStatus(failure ? 'failed' : 'off');
    },
    [queryClient],
  );

  const send = useCallback((current: Session, paused: boolean) => {
    const socket = current.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const next = nextTextToSend(latest.current.text, current.sentUpTo, paused);
    if (!next) return;
    current.sentUpTo = next.sentUpTo;
    socket.send(
      JSON.stringify({
        text: next.text,
        try_trigger_generation: true,
        ...(next.flush ? { flush: true } : {}),
      }),
    );
  }, []);

  /** Schedules an audio message's samples right after the ones before. */
  const play = useCallback((current: Session, audio: string) => {
    const samples = decodePcmAudio(audio);
    if (samples.length === 0) return;
    const context = current.audio;
    const buffer = context.createBuffer(1, samples.length, SPEAK_AS_YOU_TYPE_RATE);
    buffer.copyToChannel(samples, 0);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    const slot = scheduleBuffer(context.currentTime, current.nextStart, buffer.duration);
    source.start(slot.start);
    current.nextStart = slot.next;
    setAudioSeconds((seconds) => seconds + buffer.duration);
    setSpeaking(true);
    if (speakingTimer.current) clearTimeout(speakingTimer.current);
    speakingTimer.current = setTimeout(
      () => {
        if (mounted.current) setSpeaking(false);
      },
      (slot.next - context.currentTime) * 1000,
    );
  }, []);

  const turnOn = useCallback(async () => {
    if (session.current || !voiceId || !modelId) return;
    // Made inside the click, so the browser lets it play.
    const current: Session = {
      socket: null,
      audio: new AudioContext(),
      sentUpTo: latest.current.text.length,
      nextStart: 0,
      pause: null,
      over: false,
    };
    session.current = current;
    setStatus('connecting');
    setError(null);
    setSpoken(0);
    setAudioSeconds(0);
    let token: string;
    try {
      token = await createSingleUseToken('tts_websocket');
    } catch (cause) {
      end(current, getToastMessage(cause));
      return;
    }
    if (current.over) return;
    const socket = new WebSocket(
      socketUrl(window.location.origin, streamInputPath(voiceId), {
        model_id: modelId,
        output_format: SPEAK_AS_YOU_TYPE_FORMAT,
        inactivity_timeout: SPEAK_AS_YOU_TYPE_INACTIVITY_S,
        single_use_token: token,
      }),
    );
    current.socket = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify({ text: ' ', voice_settings: latest.current.settings }));
      // Only what is typed from now on is spoken.
      current.sentUpTo = latest.current.text.length;
      setStatus('on');
    };
    socket.onmessage = (event: MessageEvent) => {
      if (current.over || typeof event.data !== 'string') return;
      let message: Partial<Omit<TtsSocketAudio, 'isFinal'> & TtsSocketError> & { isFinal?: boolean | null };
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof message.audio === 'string') {
        // A generation's characters (its alignment) may come with its audio or ahead of it.
        const characters = charactersSpoken(message.alignment ?? message.normalizedAlignment);
        if (characters > 0) setSpoken((count) => count + characters);
        try {
          if (message.audio !== '') play(current, message.audio);
        } catch {
          end(current, 'The server sent audio that could not be played.');
        }
      } else if (typeof message.message === 'string' && typeof message.error === 'string') {
        end(current, speakAsYouTypeErrorMessage(message));
      }
      if (message.isFinal === true && session.current !== current) end(current, null);
    };
    socket.onclose = (event: CloseEvent) => {
      if (current.over) return;
      // Closed after `{"text": ""}` (turned off): a normal end. Otherwise the connection failed.
      if (session.current !== current && event.code === 1000) end(current, null);
      else end(current, speakAsYouTypeErrorMessage(null, event.code));
    };
  }, [voiceId, modelId, end, play]);

  const turnOff = useCallback(() => {
    const current = session.current;
    if (!current) return;
    const socket = current.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      end(current, null);
      return;
    }
    if (current.pause) clearTimeout(current.pause);
    send(current, true);
    socket.send(JSON.stringify({ text: '' }));
    // From here the session is finishing: the server speaks what it holds, says isFinal and closes.
    session.current = null;
    setStatus('finishing');
    // A server that never answers does not keep it finishing for ever.
    setTimeout(() => end(current, null), 30_000);
  }, [end, send]);

  // The text changed: send the completed words, and after a pause what is left.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `text` is the trigger; `send` reads the latest text itself
  useEffect(() => {
    const current = session.current;
    if (!current || current.over || status !== 'on') return;
    send(current, false);
    if (current.pause) clearTimeout(current.pause);
    current.pause = setTimeout(() => send(current, true), TYPING_PAUSE_MS);
  }, [text, status, send]);

  // A new voice or model needs a new socket: the current one ends.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the voice or model changes
  useEffect(() => {
    const current = session.current;
    if (current) turnOff();
  }, [voiceId, modelId]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (speakingTimer.current) clearTimeout(speakingTimer.current);
      if (session.current) end(session.current, null);
    };
  }, [end]);

  return { status, error, spoken, audioSeconds, speaking, turnOn, turnOff };
}
