import { vi } from 'vitest';

/**
 * Fakes for the realtime features in jsdom: a WebSocket the test drives by hand, and a Web Audio with a
 * microphone whose samples the test hands in (the worklet fails to load there, so capture goes through
 * the ScriptProcessor path) and whose playback is recorded as scheduled buffers.
 */
export class FakeWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static opened: FakeWebSocket[] = [];
  readyState = FakeWebSocket.CONNECTING;
  sent: string[] = [];
  closedWith: number | undefined;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.opened.push(this);
  }
  send(data: string) {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('not open');
    this.sent.push(data);
  }
  close(code = 1000) {
    if (this.readyState >= FakeWebSocket.CLOSING) return;
    this.closedWith = code;
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code }));
  }
  /** The server accepts the connection. */
  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }
  /** The server sends a JSON message. */
  receive(message: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  /** The server closes the connection. */
  drop(code: number) {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code }));
  }
  /** The messages sent, parsed. */
  messages(): Array<Record<string, unknown>> {
    return this.sent.map((text) => JSON.parse(text) as Record<string, unknown>);
  }
}

interface FakeBufferSource {
  buffer: { duration: number; channel: Float32Array } | null;
  startedAt: number | undefined;
}

/** The fake audio graph's record: the capture processors, the buffers played and when. */
export const fakeAudio = {
  processors: [] as Array<{ onaudioprocess: ((event: unknown) => void) | null }>,
  played: [] as FakeBufferSource[],
  closed: 0,
  /** The microphone delivers one block of mono samples at the context's rate. */
  speak(samples: Float32Array) {
    for (const processor of fakeAudio.processors) {
      processor.onaudioprocess?.({
        inputBuffer: { numberOfChannels: 1, getChannelData: () => samples },
      });
    }
  },
};

class FakeAudioContext {
  sampleRate = 48_000;
  currentTime = 0;
  state = 'running';
  destination = {};
  audioWorklet = { addModule: () => Promise.reject(new Error('no worklets in jsdom')) };
  private node() {
    return { connect: () => undefined, disconnect: () => undefined };
  }
  createMediaStreamSource() {
    return this.node();
  }
  createGain() {
    return { ...this.node(), gain: { value: 1 } };
  }
  createScriptProcessor() {
    const processor = { ...this.node(), onaudioprocess: null };
    fakeAudio.processors.push(processor);
    return processor;
  }
  createBuffer(_channels: number, length: number, rate: number) {
    const channel = new Float32Array(length);
    return { duration: length / rate, channel, copyToChannel: (data: Float32Array) => channel.set(data) };
  }
  createBufferSource() {
    const source: FakeBufferSource & Record<string, unknown> = {
      ...this.node(),
      buffer: null,
      startedAt: undefined,
      onended: null,
      start: (when: number) => {
        source.startedAt = when;
      },
      stop: () => undefined,
    };
    fakeAudio.played.push(source);
    return source;
  }
  resume() {
    return Promise.resolve();
  }
  close() {
    fakeAudio.closed += 1;
    this.state = 'closed';
    return Promise.resolve();
  }
}

/** Installs the fake WebSocket and Web Audio, and a microphone that answers (or refuses with `refusal`). */
export function stubRealtime({ refusal }: { refusal?: string } = {}) {
  FakeWebSocket.opened = [];
  fakeAudio.processors = [];
  fakeAudio.played = [];
  fakeAudio.closed = 0;
  vi.stubGlobal('WebSocket', FakeWebSocket);
  vi.stubGlobal('AudioContext', FakeAudioContext);
  const track = { stop: vi.fn() };
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: vi.fn(async () => {
        if (refusal) throw new DOMException('refused', refusal);
        return { getTracks: () => [track] };
      }),
    },
  });
  return { track };
}

/** The latest socket opened. */
export function lastSocket(): FakeWebSocket {
  const socket = FakeWebSocket.opened.at(-1);
  if (!socket) throw new Error('no socket opened');
  return socket;
}
