import { useCallback, useEffect, useRef, useState } from 'react';
import { microphoneErrorMessage, pickRecordingType, recordingFileName } from './recording';

/** A finished browser recording. */
export interface Recording {
  blob: Blob;
  fileName: string;
  /** The time recorded, measured while recording (a recorder's WebM often states no length). */
  seconds: number;
}

/** Why recording is not offered, or null when the browser can record. */
export function recordingUnavailableReason(): string | null {
  if (typeof window === 'undefined' || typeof window.MediaRecorder === 'undefined')
    return 'This browser cannot record audio (it has no MediaRecorder). Choose a file instead.';
  if (!navigator.mediaDevices?.getUserMedia)
    return 'This page cannot reach a microphone here (it needs a secure https connection). Choose a file instead.';
  return null;
}

export type RecorderStatus = 'idle' | 'starting' | 'recording';

interface Session {
  stream: MediaStream;
  recorder: MediaRecorder;
  timer: ReturnType<typeof setInterval>;
  audioContext: AudioContext | null;
  frame: number | null;
}

/**
 * Records the microphone with MediaRecorder: `start` asks for the microphone (a refusal becomes `error`),
 * `stop` ends the take and hands it to `onRecorded`, `discard` ends it and throws it away. Stops by itself at `maxSeconds`. `level` (0–1) is the
 * input's loudness, where the browser has Web Audio.
 */
export function useRecorder({
  onRecorded,
  maxSeconds,
}: {
  onRecorded: (recording: Recording) => void;
  maxSeconds: number;
}) {
  const [status, setStatus] = useState<RecorderStatus>('idle');
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const session = useRef<Session | null>(null);
  const onRecordedRef = useRef(onRecorded);
  onRecordedRef.current = onRecorded;
  const mounted = useRef(true);
  /** The take being stopped is thrown away, not handed on. */
  const discarding = useRef(false);

  const release = useCallback(() => {
    const current = session.current;
    if (!current) return;
    session.current = null;
    clearInterval(current.timer);
    if (current.frame !== null) cancelAnimationFrame(current.frame);
    for (const track of current.stream.getTracks()) track.stop();
    void current.audioContext?.close().catch(() => undefined);
  }, []);

  const stop = useCallback(() => {
    const recorder = session.current?.recorder;
    if (recorder && recorder.state !== 'inactive') recorder.stop();
  }, []);

  const discard = useCallback(() => {
    const recorder = session.current?.recorder;
    if (!recorder || recorder.state === 'inactive') return;
    discarding.current = true;
    recorder.stop();
  }, []);

  const start = useCallback(async () => {
    if (session.current) return;
    discarding.current = false;
    setError(null);
    setStatus('starting');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (cause) {
      if (!mounted.current) return;
      setError(microphoneErrorMessage(cause));
      setStatus('idle');
      return;
    }
    if (!mounted.current) {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    let recorder: MediaRecorder;
    try {
      const type = pickRecordingType((t) => MediaRecorder.isTypeSupported?.(t) ?? false);
      recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    } catch (cause) {
      for (const track of stream.getTracks()) track.stop();
      setError(microphoneErrorMessage(cause));
      setStatus('idle');
      return;
    }
    const chunks: Blob[] = [];
    const startedAt = performance.now();
    recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    });
    recorder.addEventListener('stop', () => {
      const seconds = (performance.now() - startedAt) / 1000;
      release();
      if (!mounted.current) return;
      setStatus('idle');
      setLevel(0);
      if (discarding.current) {
        discarding.current = false;
        return;
      }
      const type = recorder.mimeType || 'audio/webm';
      const blob = new Blob(chunks, { type });
      if (blob.size === 0) {
        setError('Nothing was recorded. Check the microphone and try again.');
        return;
      }
      onRecordedRef.current({ blob, seconds, fileName: recordingFileName(type, new Date()) });
    });
    const timer = setInterval(() => {
      const seconds = (performance.now() - startedAt) / 1000;
      setElapsed(seconds);
      if (seconds >= maxSeconds) stop();
    }, 200);
    session.current = { stream, recorder, timer, audioContext: null, frame: null };
    meterLevel(session.current, setLevel);
    recorder.start(1000);
    setElapsed(0);
    setStatus('recording');
  }, [maxSeconds, release, stop]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      const recorder = session.current?.recorder;
      if (recorder && recorder.state !== 'inactive') recorder.stop();
      release();
    };
  }, [release]);

  return { status, elapsed, level, error, start, stop, discard };
}

/** Follows the input's loudness (RMS of the waveform) with an AnalyserNode, where Web Audio exists. */
function meterLevel(current: Session, setLevel: (level: number) => void) {
  if (typeof AudioContext === 'undefined') return;
  try {
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(current.stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    current.audioContext = context;
    const tick = () => {
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += ((sample - 128) / 128) ** 2;
      // Speech sits around 0.05–0.3 RMS: scale so a normal voice fills most of the meter.
      setLevel(Math.min(1, Math.sqrt(sum / samples.length) * 4));
      current.frame = requestAnimationFrame(tick);
    };
    current.frame = requestAnimationFrame(tick);
  } catch {
    // The meter is a nicety: recording goes on without it.
  }
}
