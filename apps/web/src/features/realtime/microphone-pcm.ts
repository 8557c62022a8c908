import { downmix, floatToPcm16, meterLevel, StreamResampler } from './realtime-rules';

/** The worklet that hands the page the microphone's samples (apps/web/public). */
const WORKLET_URL = '/pcm-capture-worklet.js';

export interface MicrophonePcmOptions {
  /** The sample rate of the PCM handed on (the socket's `audio_format`). */
  sampleRate: number;
  /** How much audio each chunk holds. */
  chunkMs: number;
  /** A chunk of mono 16-bit little-endian PCM at `sampleRate`. */
  onChunk: (pcm: Uint8Array) => void;
  /** The input's loudness, 0–1, per block. */
  onLevel?: (level: number) => void;
}

export interface MicrophonePcm {
  /** The PCM gathered since the last chunk (may be empty). */
  drain: () => Uint8Array;
  /** Releases the microphone and the audio graph. */
  close: () => void;
}

/**
 * Opens the microphone and turns it into chunks of 16-bit mono PCM at the rate asked: the browser's
 * samples (an AudioWorklet, or a ScriptProcessor where worklets cannot load) are downmixed, resampled and
 * cut into chunks of `chunkMs`. getUserMedia's refusal is thrown as it comes (a DOMException).
 */
export async function openMicrophonePcm(options: MicrophonePcmOptions): Promise<MicrophonePcm> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
  });
  let context: AudioContext;
  try {
    context = new AudioContext();
  } catch (cause) {
    for (const track of stream.getTracks()) track.stop();
    throw cause;
  }
  const resampler = new StreamResampler(context.sampleRate, options.sampleRate);
  const perChunk = Math.round((options.sampleRate * options.chunkMs) / 1000);
  let pending = new Float32Array(0);
  let closed = false;

  const take = (channels: readonly Float32Array[]) => {
    if (closed) return;
    const mono = downmix(channels);
    options.onLevel?.(meterLevel(mono));
    const resampled = resampler.push(mono);
    const joined = new Float32Array(pending.length + resampled.length);
    joined.set(pending);
    joined.set(resampled, pending.length);
    let at = 0;
    while (joined.length - at >= perChunk) {
      options.onChunk(floatToPcm16(joined.subarray(at, at + perChunk)));
      at += perChunk;
    }
    pending = joined.slice(at);
  };

  const source = context.createMediaStreamSource(stream);
  // The capture node must reach the destination to be pulled; silent, so nothing is heard.
  const silent = context.createGain();
  silent.gain.value = 0;
  silent.connect(context.destination);
  let node: AudioNode;
  try {
    await context.audioWorklet.addModule(WORKLET_URL);
    const worklet = new AudioWorkletNode(context, 'pcm-capture');
    worklet.port.onmessage = (event: MessageEvent<Float32Array[]>) => take(event.data);
    node = worklet;
  } catch {
    // No worklet (an old browser, or the module could not load): the deprecated processor still works.
    const processor = context.createScriptProcessor(4096, 1, 1);
    processor.onaudioprocess = (event) => {
      const channels: Float32Array[] = [];
      for (let c = 0; c < event.inputBuffer.numberOfChannels; c++) {
        channels.push(event.inputBuffer.getChannelData(c).slice());
      }
      take(channels);
    };
    node = processor;
  }
  source.connect(node);
  node.connect(silent);
  if (context.state === 'suspended') await context.resume().catch(() => undefined);

  return {
    drain: () => {
      const rest = floatToPcm16(pending);
      pending = new Float32Array(0);
      return rest;
    },
    close: () => {
      if (closed) return;
      closed = true;
      source.disconnect();
      node.disconnect();
      for (const track of stream.getTracks()) track.stop();
      void context.close().catch(() => undefined);
    },
  };
}
