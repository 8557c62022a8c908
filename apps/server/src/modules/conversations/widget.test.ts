import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { ulawToPcm } from '@parla/audio';
import { describe, expect, it } from 'vitest';

/*
 * The widget's microphone (widget/convai-widget.js) against the agent's `user_input_audio_format`: the
 * script runs in a VM with the few browser objects it touches (a capture context at 48 kHz, as devices
 * run), and what it would send is read back.
 */

const SCRIPT = fs.readFileSync(path.join(import.meta.dirname, 'widget', 'convai-widget.js'), 'utf8');
const DEVICE_RATE = 48_000;

interface Widget {
  socket: { readyState: number; send(text: string): void };
  receive(message: unknown, stream: unknown): Promise<void>;
  $(selector: string): unknown;
}

function loadWidget() {
  let Element: (new () => Widget) | undefined;
  let processor: { onaudioprocess?: (event: unknown) => void } | undefined;
  /** The rate of the context the microphone is captured in (a device's own unless one is asked for). */
  let captureRate = DEVICE_RATE;
  const element = () => ({ classList: { add() {}, remove() {}, toggle() {} }, textContent: '' });
  class FakeAudioContext {
    readonly sampleRate: number;
    constructor(options?: { sampleRate?: number }) {
      this.sampleRate = options?.sampleRate ?? DEVICE_RATE;
    }
    createMediaStreamSource() {
      return { connect() {} };
    }
    createScriptProcessor() {
      captureRate = this.sampleRate;
      processor = { connect() {} } as typeof processor;
      return processor;
    }
    get destination() {
      return {};
    }
  }
  const context = vm.createContext({
    document: { currentScript: { src: 'http://127.0.0.1/convai-widget.js' } },
    window: { location: { origin: 'http://127.0.0.1' } },
    customElements: {
      get: () => undefined,
      define: (_name: string, defined: new () => Widget) => {
        Element = defined;
      },
    },
    HTMLElement: class {
      attachShadow() {
        return { querySelector: element };
      }
    },
    AudioContext: FakeAudioContext,
    WebSocket: { OPEN: 1 },
    URL,
    btoa,
    atob,
    Float32Array,
    Uint8Array,
    DataView,
    String,
    Math,
    Number,
  });
  vm.runInContext(SCRIPT, context);
  if (!Element) throw new Error('the widget defined no element');
  const widget = new Element();
  const sent: string[] = [];
  widget.socket = { readyState: 1, send: (text) => sent.push(text) };
  widget.$ = element;
  return {
    widget,
    sent,
    /** A second of a 440 Hz tone from the microphone, in ScriptProcessor-sized buffers at its context's rate. */
    speakASecond() {
      const second = Float32Array.from(
        { length: captureRate },
        (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / captureRate),
      );
      for (let at = 0; at < second.length; at += 2048) {
        const samples = second.subarray(at, at + 2048);
        processor?.onaudioprocess?.({ inputBuffer: { getChannelData: () => samples } });
      }
    },
  };
}

const meta = (input: string) => ({
  type: 'conversation_initiation_metadata',
  conversation_initiation_metadata_event: {
    conversation_id: 'conv_1',
    agent_output_audio_format: 'pcm_16000',
    user_input_audio_format: input,
  },
});

function chunks(sent: string[]): Buffer[] {
  return sent
    .map((text) => JSON.parse(text) as { user_audio_chunk?: string })
    .filter((m) => m.user_audio_chunk !== undefined)
    .map((m) => Buffer.from(m.user_audio_chunk as string, 'base64'));
}

describe("the widget sends the microphone in the agent's input format", () => {
  it.each([
    ['pcm_8000', 8000],
    ['pcm_16000', 16_000],
    ['pcm_44100', 44_100],
  ])('%s: PCM at that rate', async (format, rate) => {
    const { widget, sent, speakASecond } = loadWidget();
    await widget.receive(meta(format), {});
    speakASecond();
    const bytes = chunks(sent).reduce((n, b) => n + b.length, 0);
    expect(Math.abs(bytes / 2 - rate)).toBeLessThanOrEqual(2);
    // Still the tone: its zero crossings, 880 a second, at the new rate.
    const all = Buffer.concat(chunks(sent));
    const pcm = new Int16Array(all.buffer, all.byteOffset, all.length / 2);
    let crossings = 0;
    for (let i = 1; i < pcm.length; i += 1)
      if ((pcm[i - 1] as number) < 0 !== (pcm[i] as number) < 0) crossings += 1;
    expect(Math.abs(crossings - 880)).toBeLessThanOrEqual(4);
  });

  it('ulaw_8000: μ-law bytes at 8 kHz that decode to the tone', async () => {
    const { widget, sent, speakASecond } = loadWidget();
    await widget.receive(meta('ulaw_8000'), {});
    speakASecond();
    const all = Buffer.concat(chunks(sent));
    expect(Math.abs(all.length - 8000)).toBeLessThanOrEqual(2);
    const pcm = ulawToPcm(new Uint8Array(all));
    const peak = pcm.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak / 32768).toBeGreaterThan(0.45);
    expect(peak / 32768).toBeLessThan(0.55);
  });
});
