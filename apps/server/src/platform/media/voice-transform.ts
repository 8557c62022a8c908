import type { PcmAudio } from '@parla/audio';
import { runMediaTool } from './run-media-tool';

/** How to move a voice: each ratio is a multiple of the input's own, from 0.5 to 2. */
export interface VoiceTransform {
  /** Fundamental frequency (the intonation contour moves with it, its shape kept). */
  pitchRatio: number;
  /** Spectral envelope (formants): above 1 a smaller vocal tract, below 1 a larger one. */
  formantRatio: number;
  /** Speaking rate: the result lasts 1 / tempoRatio as long. */
  tempoRatio?: number;
  /**
   * A pitch that moves with time on top of pitchRatio: from each point's time (seconds of the input)
   * until the next, the pitch is multiplied by its ratio (0.5–2). Widens or narrows an intonation.
   */
  pitchCurve?: readonly PitchPoint[] | undefined;
}

/** One point of a pitch curve: from `atSeconds` of the input on, the pitch is multiplied by `ratio`. */
export interface PitchPoint {
  atSeconds: number;
  ratio: number;
}

export const MIN_RATIO = 0.5;
export const MAX_RATIO = 2;
/** Ratios this close to 1 count as 1 (0.1 % of pitch is under 2 cents: nobody hears it). */
const UNITY = 0.001;

/**
 * librubberband's R3 ("finer") engine, RubberBandOptionEngineFiner in rubberband-c.h (librubberband 3.x;
 * Debian 12 ships 3.1.2). ffmpeg 5.1's rubberband filter has no option for the engine, but it ORs its
 * integer options into librubberband's option word as they are (af_rubberband.c, config_input), so the
 * bit rides on `channels` (whose own values, apart = 0 and together, sit in other bits). The default R2
 * engine's formant preservation is weak: shifting pitch by 1.15 with formant=preserved still moved the
 * formants by 1.11 and dulled the top of the spectrum (measured); R3 kept them within 1 %. A
 * librubberband 2.x would ignore the bit and fall back to R2: the formant tests would catch it.
 */
const ENGINE_FINER = 0x20000000;

const unity = (ratio: number) => (Math.abs(ratio - 1) < UNITY ? 1 : ratio);

function checkRatio(name: string, ratio: number): void {
  if (!(ratio >= MIN_RATIO && ratio <= MAX_RATIO)) {
    throw new RangeError(`${name} must be from ${MIN_RATIO} to ${MAX_RATIO}, not ${ratio}.`);
  }
}

/**
 * The ffmpeg `-af` chain that moves pitch by p and formants by f independently, and the pace by t:
 *
 * 1. `asetrate=sr·f` relabels the samples as recorded at sr·f. Heard at that rate everything runs f×
 *    faster: pitch ×f, formants ×f, duration ÷f. `aresample=sr` returns to the working rate without
 *    changing what is heard. The band edge pays: at 16 kHz, f = 1.15 cuts the input's 7–8 kHz, and
 *    f = 0.85 leaves 6.8–8 kHz empty (a pitch shift down thins the top the same way: flite slt's
 *    4–8 kHz band fell 6 dB at pitch 0.8). The formants, below 4 kHz, move as asked.
 * 2. `rubberband` (a phase vocoder) then stretches time back and on: tempo t/f (a speed factor) gives a
 *    duration of (1/f)·(f/t) = 1/t; and shifts pitch by p/f with `formant=preserved`, which holds the
 *    spectral envelope where step 1 put it. Net: pitch f·(p/f) = p, formants f, duration 1/t.
 *
 * The rate sr·f is rounded to a whole number of hertz and the rest of the chain uses the rounded f, so
 * the duration comes out exact. atempo is not needed (rubberband's tempo spans 0.01–100, atempo's
 * 0.5–2 per instance), and its WSOLA would splice pitch glides. `pitchq=quality` suits a pitch ratio
 * that stays fixed for the whole audio. Identity gives `anull`.
 */
export function voiceTransformFilter(params: VoiceTransform, sampleRate: number): string {
  const tempoRatio = params.tempoRatio ?? 1;
  checkRatio('pitchRatio', params.pitchRatio);
  checkRatio('formantRatio', params.formantRatio);
  checkRatio('tempoRatio', tempoRatio);
  if (!Number.isInteger(sampleRate) || sampleRate < 8000) {
    throw new RangeError(`A sample rate of ${sampleRate} Hz cannot be transformed.`);
  }
  const curve = params.pitchCurve ?? [];
  for (const point of curve) {
    checkRatio('a pitch curve ratio', point.ratio);
    checkRatio('pitchRatio × a pitch curve ratio', params.pitchRatio * point.ratio);
    if (!(point.atSeconds >= 0))
      throw new RangeError(`A pitch curve point at ${point.atSeconds} s is not a time.`);
  }
  const moving = curve.some((point) => unity(point.ratio) !== 1);
  const pitch = unity(params.pitchRatio);
  const tempo = unity(tempoRatio);
  const shiftedRate =
    unity(params.formantRatio) === 1 ? sampleRate : Math.round(sampleRate * params.formantRatio);
  if (pitch === 1 && tempo === 1 && shiftedRate === sampleRate && !moving) return 'anull';
  const formant = shiftedRate / sampleRate;
  const stages: string[] = [];
  if (moving) {
    // Commands are sent as the input's frames pass (times on the input's clock); 256-sample frames
    // place each change within 5–16 ms of where it belongs.
    const commands = curve
      .map(
        (point) =>
          `${point.atSeconds.toFixed(3)} rubberband@vt pitch ${((pitch * point.ratio) / formant).toFixed(6)}`,
      )
      .join(';');
    stages.push('asetnsamples=n=256:p=0', `asendcmd=c='${commands}'`);
  }
  if (shiftedRate !== sampleRate) stages.push(`asetrate=${shiftedRate}`, `aresample=${sampleRate}`);
  const options = [
    `tempo=${(tempo / formant).toFixed(6)}`,
    `pitch=${(pitch / formant).toFixed(6)}`,
    'formant=preserved',
    // A pitch that moves needs its changes to sound continuous; a fixed one the best quality.
    moving ? 'pitchq=consistency' : 'pitchq=quality',
    // R3 refuses input after ffmpeg's filter has sent its final chunk, which pitch commands (they change
    // how many samples it asks for) made happen on some lengths ("Cannot process again after final
    // chunk"): a moving pitch runs on R2, whose formants follow a pitch change a little (see above).
    ...(moving ? [] : [`channels=${ENGINE_FINER}`]),
  ];
  stages.push(`rubberband${moving ? '@vt' : ''}=${options.join(':')}`);
  return stages.join(',');
}

/**
 * Silence between the audio and the timing click, and after the click: longer than rubberband's window
 * and the time a pitch-shifted click smears over, so the click never touches the audio.
 */
const CLICK_GAP_SECONDS = 0.3;
/** How far from where it belongs the click is looked for (the lags seen were 7–23 ms). */
const CLICK_SEARCH_SECONDS = 0.1;

/**
 * Moves a voice's pitch, formants and pace (see voiceTransformFilter) with ffmpeg in the program host.
 * The result lasts exactly 1 / tempoRatio as long, and keeps the input's timing: rubberband's output
 * lags or leads by up to ~25 ms, by pitch ratio and rate (ffmpeg does not compensate it), so a click
 * appended after the audio is found in the output and the audio is read back from its lag (to ±3 ms).
 */
export async function transformVoice(
  audio: PcmAudio,
  params: VoiceTransform,
  options: { timeoutMs?: number } = {},
): Promise<PcmAudio> {
  if (audio.channels !== 1)
    throw new Error(`transformVoice takes mono audio, not ${audio.channels} channels.`);
  const { sampleRate, samples } = audio;
  const filter = voiceTransformFilter(params, sampleRate);
  if (filter === 'anull' || samples.length === 0)
    return { sampleRate, channels: 1, samples: samples.slice() };
  const tempo = unity(params.tempoRatio ?? 1);
  const gap = Math.round(CLICK_GAP_SECONDS * sampleRate);
  const tail = new Int16Array(2 * gap + 1);
  tail[gap] = 16384;
  const input = [
    '-hide_banner',
    '-v',
    'error',
    '-f',
    's16le',
    '-ar',
    String(sampleRate),
    '-ac',
    '1',
    '-i',
    'pipe:0',
  ];
  const output = ['-af', filter, '-ar', String(sampleRate), '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1'];
  const { stdout, exit, timedOut } = await runMediaTool('ffmpeg', [...input, ...output], {
    input: [
      new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength),
      new Uint8Array(tail.buffer),
    ],
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  if (timedOut) throw new Error('ffmpeg took too long to transform the voice.');
  if (exit.code !== 0) throw new Error(`ffmpeg could not transform the voice: ${exit.stderr.slice(0, 300)}`);
  const shifted = new Int16Array(Math.floor(stdout.byteLength / 2));
  Buffer.from(shifted.buffer).set(stdout.subarray(0, shifted.byteLength));

  const expected = Math.round((samples.length + gap) / tempo);
  const reach = Math.round(CLICK_SEARCH_SECONDS * sampleRate);
  let peak = 0;
  let found = expected;
  for (let i = Math.max(0, expected - reach); i < Math.min(shifted.length, expected + reach); i++) {
    const level = Math.abs(shifted[i] as number);
    if (level > peak) {
      peak = level;
      found = i;
    }
  }
  const lag = found - expected;
  const length = Math.round(samples.length / tempo);
  const out = new Int16Array(length);
  const from = Math.max(0, lag);
  const to = Math.max(0, -lag);
  out.set(shifted.subarray(from, Math.min(shifted.length, from + length - to)), to);
  return { sampleRate, channels: 1, samples: out };
}
