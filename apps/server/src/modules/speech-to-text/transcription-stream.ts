import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Resampler } from '@parla/audio';
import {
  DEFAULT_STT_MODEL_ID,
  findSttLanguage,
  REALTIME_STT_LIMITS,
  type RealtimeErrorType,
  type SttModel,
} from '@parla/contracts';
import type { Logger } from 'pino';
import type { AppDeps } from '../../app-deps';
import type { RequestCaller } from '../../platform/auth-guard';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { invalid } from '../../platform/errors';
import { makeScratchDir } from '../../platform/scratch-dirs';
import type { Storage } from '../../platform/storage/storage';
import {
  type HeardWord,
  type RealtimeRecogniser,
  type RealtimeVadUpdate,
  type RealtimeVoiceActivity,
  STT_SAMPLE_RATE,
  type SttProvider,
} from '../../providers/stt/stt-provider';
import { assertAffordable, type Budget, type MeteringDeps, openBudget, type SocketSlot } from '../metering';
import { keepLiveTranscript, type LiveSegment } from './realtime-transcripts';
import { assertLanguage, resolveSttModel } from './speech-to-text.service';

/*
 * A live transcription (issue 20 item 4; issue 26 item 1 "transcribe a stream"): audio pushed as it comes,
 * transcripts given as speech is committed. The audio is resampled to 16 kHz and appended to the stream's
 * scratch file; a stateful voice-activity detector (in the server's voice-activity process, opened with
 * the first audio) is fed each new sample once; the recogniser reads spans of the file in the engine
 * children (the pool, with the workspace as tenant). While speech goes on a partial transcript is made at
 * most every REALTIME_STT_LIMITS.partialEverySecs of audio (one at a time, skipped under load); when speech
 * stops the utterance is decoded at once (speculatively), so the committed transcript is ready when the
 * silence threshold has passed. Each commit is charged as it is given: 1 credit per started second of the
 * stream's audio up to the commit (decision records 0013, 0015); a commit that could not be given is
 * refunded. `/v1/speech-to-text/realtime` is this stream behind a socket; an agent's conversation will be
 * another client of it.
 */

const RATE = STT_SAMPLE_RATE;
const seconds = (samples: number) => samples / RATE;

/** Speech segments closer than this are recognised as one span (the recogniser hears a sentence whole). */
const JOIN_GAP = Math.round(0.6 * RATE);

type Span = { start: number; end: number };

/** A stream's refusal, in the realtime protocol's vocabulary (the socket sends it as its error). */
export class TranscriptionError extends Error {
  constructor(
    readonly type: RealtimeErrorType,
    message: string,
  ) {
    super(message);
  }
}

/** How a stream listens (the socket's query, checked). */
export interface TranscriptionStreamInput {
  /** A model id or alias; the default model when absent. */
  modelId?: string | undefined;
  /** ISO 639-1 or 639-3; the model's language when absent. */
  languageCode?: string | undefined;
  /** The sample rate of the 16-bit mono PCM pushed. */
  inputRate: number;
  /** `vad`: an utterance is committed after `vadSilenceThresholdSecs` of silence; `manual`: on `commit()`. */
  commitStrategy: 'manual' | 'vad';
  vadSilenceThresholdSecs: number;
  vadThreshold: number;
  minSpeechMs: number;
  minSilenceMs: number;
  /** Give each commit's words with their times too (a second pass, after the text). */
  wordTimes: boolean;
  /** Keep the stream as one of the workspace's transcripts when it ends (if it committed text). */
  keep: boolean;
}

/** Who hears the stream. Its calls should not throw: one that does is logged and changes nothing. */
export interface TranscriptionListener {
  /** Whether it can still be given anything: a commit whose text cannot be given is not charged. */
  isOpen(): boolean;
  /** The speech going on, as heard so far. */
  partial(text: string): void;
  /** A committed utterance's text, as soon as it is decoded (charged once given). */
  committed(text: string): void;
  /**
   * The commit done: its text again, with its words and their times (none unless `wordTimes` or `keep`),
   * after the text was given.
   */
  committedWithWords(text: string, words: HeardWord[]): void;
  /** A commit failed: the stream should be closed. */
  failed(error: unknown): void;
}

/** What a stream needs from the app. */
export interface TranscriptionStreamDeps {
  db: Db;
  storage: Storage;
  clock: Clock;
  logger: Logger;
  stt: SttProvider;
  metering: Pick<MeteringDeps, 'db' | 'events' | 'clock' | 'leases' | 'logger'>;
}

/** A stream's deps, from the app's. */
export function transcriptionStreamDepsOf(app: AppDeps): TranscriptionStreamDeps {
  const db = app.database.db;
  return {
    db,
    storage: app.storage,
    clock: app.clock,
    logger: app.logger,
    stt: app.providers.stt,
    metering: { db, events: app.events, clock: app.clock, leases: app.leases, logger: app.logger },
  };
}

/** What a stream may be told by the one who opened it. */
export interface TranscriptionStreamOptions {
  /** The concurrency place it runs in (a socket's): its commits take none of their own. */
  within?: SocketSlot | undefined;
  /** Checked before each charge (a socket: the key or seat may have been revoked since it opened). */
  beforeCharge?: (() => Promise<void>) | undefined;
}

/** A live transcription checked and ready to open: its model resolved. */
export interface PreparedTranscriptionStream {
  model: SttModel;
  open(listener: TranscriptionListener, options?: TranscriptionStreamOptions): Promise<TranscriptionStream>;
}

/**
 * The checks of a live transcription before anything is spent: the model (our ids or the public aliases),
 * its language, and credits for at least one second. A socket takes its concurrency place between these
 * checks and the opening.
 */
export async function prepareTranscriptionStream(
  deps: TranscriptionStreamDeps,
  caller: RequestCaller,
  input: TranscriptionStreamInput,
): Promise<PreparedTranscriptionStream> {
  const recogniser = deps.stt.realtime;
  if (!recogniser)
    throw new TranscriptionError('invalid_request', 'This server does not transcribe live audio.');
  // The socket's query is checked by its contract; another module's input is checked here.
  if (!Number.isInteger(input.inputRate) || input.inputRate < 8_000 || input.inputRate > 48_000)
    throw invalid('input_rate', `The audio's sample rate must be 8,000–48,000 Hz, not ${input.inputRate}.`);
  if (!(input.vadSilenceThresholdSecs > 0) || !(input.vadThreshold >= 0 && input.vadThreshold <= 1))
    throw invalid('vad', 'The voice-activity settings are out of range.');
  const model = resolveSttModel(deps.stt, input.modelId ?? DEFAULT_STT_MODEL_ID);
  let language: string | undefined;
  if (input.languageCode) {
    const found = findSttLanguage(input.languageCode);
    if (!found) throw invalid('language_code', `Unknown language_code "${input.languageCode}".`);
    language = found.iso1 ?? found.code;
    assertLanguage(deps.stt, model, language);
  }
  await assertAffordable(deps.metering, caller, 1, 'mp3_44100_128');
  return {
    model,
    open: async (listener, options = {}) => {
      const stream = new TranscriptionStream(
        deps,
        recogniser,
        caller,
        model,
        language,
        input,
        listener,
        options,
      );
      try {
        await stream.open();
      } catch (error) {
        await stream.close();
        throw error;
      }
      return stream;
    },
  };
}

/**
 * Opens a live transcription for the caller (checked as `prepareTranscriptionStream` checks). Push audio
 * with `push`, commit with `commit` (or let `vad` commit), and `close` it: what was committed is kept as a
 * transcript when asked.
 */
export async function openTranscriptionStream(
  deps: TranscriptionStreamDeps,
  caller: RequestCaller,
  input: TranscriptionStreamInput,
  listener: TranscriptionListener,
  options: TranscriptionStreamOptions = {},
): Promise<TranscriptionStream> {
  return (await prepareTranscriptionStream(deps, caller, input)).open(listener, options);
}

/** The utterance being heard: audio from `from` (samples) not committed yet. */
interface Utterance {
  from: number;
  /** Speech segments that ended, clipped to the utterance. */
  segments: Span[];
  /** Where the speech going on now started (an estimate: the detector says so after min speech). */
  openStart: number | undefined;
  /** Audio written when the last partial decode started. */
  lastPartial: number;
}

export class TranscriptionStream {
  private readonly cancel = new AbortController();
  private readonly resampler: Resampler;
  private readonly startedAt: Date;
  private dir: string | undefined;
  private file = '';
  private handle: FileHandle | undefined;
  /**
   * The stream's voice-activity detector, opened with its first audio: an idle stream holds none (each is
   * an ONNX Runtime session of ~5.5 MB in the voice-activity process; issue 26 item 9).
   */
  private vad: Promise<RealtimeVoiceActivity> | undefined;
  /** 16 kHz samples written to the stream's file. */
  private written = 0;
  private speaking = false;
  private utterance: Utterance = { from: 0, segments: [], openStart: undefined, lastPartial: 0 };
  private partialInFlight = false;
  private partialCancel: AbortController | undefined;
  /** The speculative decode of the utterance as it stood when speech stopped. */
  private speculative: { key: string; result: Promise<{ text: string; words: HeardWord[] }[]> } | undefined;
  /** Commits run in order, one at a time. */
  private commits: Promise<void> = Promise.resolve();
  private commitsWaiting = 0;
  /** Audio whose commit was given (or given up). */
  private transcribedUpTo = 0;
  /** Credits charged so far: ceil(seconds up to the last given commit). */
  private charged = 0;
  private readonly kept: LiveSegment[] = [];
  private lastCommitPoint = 0;
  /** Audio committed so far (samples): every sample up to each commit, less silence skipped (vad). */
  private committed = 0;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly deps: TranscriptionStreamDeps,
    private readonly recogniser: RealtimeRecogniser,
    private readonly caller: RequestCaller,
    readonly model: SttModel,
    private readonly language: string | undefined,
    private readonly input: TranscriptionStreamInput,
    private readonly listener: TranscriptionListener,
    private readonly options: TranscriptionStreamOptions,
  ) {
    this.resampler = new Resampler(input.inputRate, RATE);
    this.startedAt = deps.clock.now();
  }

  /** The stream's scratch file (the close waits for it, then removes it). */
  async open(): Promise<void> {
    this.dir = await makeScratchDir('rt-stt-');
    this.file = path.join(this.dir, 'audio.s16');
    this.handle = await fs.open(this.file, 'w', 0o600);
  }

  /** The language heard, ISO 639-3 (the built-in models hear English). */
  get languageCode(): string {
    return findSttLanguage(this.language ?? 'en')?.code ?? 'eng';
  }

  /** 16-bit mono PCM at the stream's input rate, appended in order (await each before the next). */
  async push(samples: Int16Array): Promise<void> {
    if (samples.length > 0) await this.append(this.resampler.push(samples));
  }

  /** Commits everything pushed so far (the client's `commit`). */
  async commit(): Promise<void> {
    if (this.closing) return;
    await this.append(this.resampler.flush());
    this.commitAt(this.written);
  }

  /** The voice-activity detector, opened by the first audio (the first of the server starts its process). */
  private voiceActivity(): Promise<RealtimeVoiceActivity> {
    this.vad ??= this.recogniser.openVoiceActivity({
      threshold: this.input.vadThreshold,
      minSpeechSecs: this.input.minSpeechMs / 1000,
      minSilenceSecs: this.input.minSilenceMs / 1000,
    });
    return this.vad;
  }

  /** Appends 16 kHz audio to the stream's file, and feeds it to the voice-activity detector. */
  private async append(samples: Int16Array): Promise<void> {
    if (samples.length === 0 || !this.handle || this.closing) return;
    const vad = await this.voiceActivity();
    const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    await this.handle.write(bytes, 0, bytes.length, this.written * 2);
    this.written += samples.length;
    // Committed audio still waiting for its transcript, and audio not committed yet (at most
    // maxUtteranceSecs of it: the stream commits then).
    const backlog = this.lastCommitPoint - this.transcribedUpTo + (this.written - this.utterance.from);
    if (seconds(backlog) > REALTIME_STT_LIMITS.maxBacklogSecs)
      throw new TranscriptionError(
        'queue_overflow',
        `More than ${REALTIME_STT_LIMITS.maxBacklogSecs} s of audio is waiting to be transcribed; send audio no faster than real time.`,
      );
    const update = await vad.accept(samples);
    if (!this.listener.isOpen()) return;
    this.onVoice(update);
    if (seconds(this.written - this.utterance.from) >= REALTIME_STT_LIMITS.maxUtteranceSecs)
      this.commitAt(this.written);
  }

  private get thresholdSamples(): number {
    return Math.round(this.input.vadSilenceThresholdSecs * RATE);
  }

  private onVoice(update: RealtimeVadUpdate): void {
    const vadMode = this.input.commitStrategy === 'vad';
    for (const found of update.segments) {
      if (found.end <= this.utterance.from) continue;
      const segment = { start: Math.max(found.start, this.utterance.from), end: found.end };
      const last = this.utterance.segments.at(-1);
      // A pause of the threshold between two segments: the first utterance ended there.
      if (vadMode && last && segment.start - last.end >= this.thresholdSamples)
        this.commitAt(last.end + this.thresholdSamples);
      this.utterance.segments.push(segment);
    }
    const wasSpeaking = this.speaking;
    this.speaking = update.speaking;
    if (this.speaking && !wasSpeaking) {
      // Detected after min_speech_duration of speech (and a window): it began about that long ago.
      const back = Math.round((this.input.minSpeechMs / 1000 + 0.1) * RATE);
      const floor = Math.max(this.utterance.from, this.utterance.segments.at(-1)?.end ?? 0);
      this.utterance.openStart = Math.max(floor, update.fed - back);
    } else if (this.speaking && this.utterance.openStart === undefined) {
      this.utterance.openStart = this.utterance.from;
    }
    if (!this.speaking) this.utterance.openStart = undefined;
    const last = this.utterance.segments.at(-1);
    if (vadMode && !this.speaking && !last) {
      // Silence before any speech: not part of an utterance (not transcribed, not charged). Kept back by
      // what the detector needs before it says speech started.
      const margin = Math.round((this.input.minSpeechMs / 1000 + 0.5) * RATE);
      this.utterance.from = Math.max(this.utterance.from, update.fed - margin);
    }
    if (vadMode && !this.speaking && last) {
      this.speculate();
      if (update.fed - last.end >= this.thresholdSamples) this.commitAt(last.end + this.thresholdSamples);
    }
    this.maybePartial();
  }

  /** The spans of the utterance to recognise, up to `until`: its segments joined across short pauses. */
  private spansOf(utterance: Utterance, until: number): Span[] {
    const all = [...utterance.segments];
    if (utterance.openStart !== undefined && until > utterance.openStart)
      all.push({ start: utterance.openStart, end: until });
    const spans: Span[] = [];
    for (const segment of all) {
      const end = Math.min(segment.end, until);
      if (end <= segment.start) continue;
      const last = spans.at(-1);
      if (last && segment.start - last.end < JOIN_GAP) last.end = Math.max(last.end, end);
      else spans.push({ start: segment.start, end });
    }
    return spans;
  }

  /** `signal` null: not cancelled when the stream closes. */
  private recognise(
    spans: Span[],
    timestamps: 'none' | 'word',
    signal: AbortSignal | null = this.cancel.signal,
  ) {
    return this.recogniser.recogniseSpans({
      file: this.file,
      model: this.model.kind,
      spans,
      timestamps,
      tenant: this.caller.workspaceId,
      ...(signal ? { signal } : {}),
      ...(this.language ? { language: this.language } : {}),
    });
  }

  private keyOf(spans: Span[]): string {
    return spans.map((s) => `${s.start}-${s.end}`).join(',');
  }

  /** Speech stopped: decode the utterance now, so its commit is ready when the threshold has passed. */
  private speculate(): void {
    const spans = this.spansOf(this.utterance, this.written);
    const key = this.keyOf(spans);
    if (spans.length === 0 || this.speculative?.key === key) return;
    // A partial still waiting for an engine gives way: the commit is what the listener waits for.
    this.partialCancel?.abort();
    const result = this.recognise(spans, 'none');
    result.catch(() => undefined);
    this.speculative = { key, result };
  }

  /** A partial transcript of the speech going on (one in flight at most; skipped, never queued). */
  private maybePartial(): void {
    const u = this.utterance;
    if (this.partialInFlight || this.commitsWaiting > 0 || !this.speaking) return;
    if (seconds(this.written - u.lastPartial) < REALTIME_STT_LIMITS.partialEverySecs) return;
    const spans = this.spansOf(u, this.written);
    if (spans.length === 0) return;
    u.lastPartial = this.written;
    this.partialInFlight = true;
    const cancel = new AbortController();
    this.partialCancel = cancel;
    this.recognise(spans, 'none', AbortSignal.any([this.cancel.signal, cancel.signal]))
      .then((heard) => {
        // Given only while its utterance is still the one being heard.
        if (this.utterance !== u) return;
        const text = heard
          .map((h) => h.text)
          .filter(Boolean)
          .join(' ');
        if (text && this.listener.isOpen()) this.tell(() => this.listener.partial(text));
      })
      .catch((error: unknown) => {
        // A partial under load is skipped; the commit reports a real failure.
        this.deps.logger.debug({ err: error }, 'a partial transcript was skipped');
      })
      .finally(() => {
        this.partialInFlight = false;
        if (this.partialCancel === cancel) this.partialCancel = undefined;
      });
  }

  /** Calls the listener; a listener that throws is logged, never lets the stream's order of commits break. */
  private tell(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'a transcription listener threw');
    }
  }

  /** Commits the utterance up to `point` (samples): its transcript is made, given and charged in order. */
  private commitAt(point: number): void {
    // A closed stream commits nothing more (what it had committed is finished by the close).
    if (this.closing) return;
    const u = this.utterance;
    const spans = this.spansOf(u, point);
    const key = this.keyOf(spans);
    const speculative = this.speculative?.key === key ? this.speculative.result : undefined;
    this.speculative = undefined;
    // What goes on past the point belongs to the next utterance.
    const openStart = this.speaking ? Math.max(point, u.openStart ?? point) : undefined;
    const carried = u.segments
      .filter((s) => s.end > point)
      .map((s) => ({ start: Math.max(s.start, point), end: s.end }));
    this.utterance = { from: point, segments: carried, openStart, lastPartial: this.written };
    this.lastCommitPoint = Math.max(this.lastCommitPoint, point);
    this.committed += point - u.from;
    const through = this.committed;
    this.commitsWaiting += 1;
    this.commits = this.commits
      .then(() => this.runCommit(point, through, spans, speculative))
      .catch((error: unknown) => this.tell(() => this.listener.failed(error)))
      .finally(() => {
        this.commitsWaiting -= 1;
      });
  }

  private async runCommit(
    point: number,
    through: number,
    spans: Span[],
    speculative: Promise<{ text: string; words: HeardWord[] }[]> | undefined,
  ): Promise<void> {
    if (!this.listener.isOpen()) return;
    await this.options.beforeCharge?.();
    // 1 credit per started second of the audio committed so far, less what was charged already.
    const owed = Math.ceil(seconds(through) - 1e-9) - this.charged;
    // The text (usually decoded already, speculatively) while the credits are reserved.
    const recognised =
      spans.length === 0 ? Promise.resolve([]) : (speculative ?? this.recognise(spans, 'none'));
    recognised.catch(() => undefined);
    let budget: Budget | undefined;
    if (owed > 0)
      budget = await openBudget(
        this.deps.metering,
        this.caller,
        { kind: 'speech_to_text', credits: owed, modelId: this.model.model_id },
        { within: this.options.within },
      );
    let delivered = false;
    let settled = false;
    try {
      const heard = await recognised;
      const text = heard
        .map((h) => h.text)
        .filter(Boolean)
        .join(' ');
      if (!this.listener.isOpen()) {
        await budget?.refund();
        return;
      }
      // The text first, as soon as it is known: word times take a second pass (alignment).
      this.tell(() => this.listener.committed(text));
      delivered = true;
      let words: HeardWord[] = [];
      if (text && (this.input.wordTimes || this.input.keep)) {
        try {
          // Not cancelled by the close: a stream kept as a transcript keeps its last words' times.
          words = (await this.recognise(spans, 'word', null)).flatMap((h) => h.words);
        } catch (error) {
          if (this.input.wordTimes && this.listener.isOpen()) throw error;
        }
      }
      if (this.listener.isOpen()) this.tell(() => this.listener.committedWithWords(text, words));
      settled = true;
      await this.settle(budget, owed);
      this.transcribedUpTo = Math.max(this.transcribedUpTo, point);
      const first = spans[0];
      const lastSpan = spans.at(-1);
      if (text && first && lastSpan)
        this.kept.push({ start: seconds(first.start), end: seconds(lastSpan.end), text, words });
    } catch (error) {
      // The transcript's text reached the listener: charged; otherwise nothing is.
      if (delivered && !settled) await this.settle(budget, owed);
      else if (!delivered) await budget?.refund();
      throw error;
    }
  }

  private async settle(budget: Budget | undefined, owed: number): Promise<void> {
    await budget?.settle();
    if (owed > 0) this.charged += owed;
  }

  /**
   * Ends the stream (once): work still running stops (and is refunded), what was committed is kept as a
   * transcript when asked, the files go.
   */
  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private async finish(): Promise<void> {
    this.cancel.abort();
    // A detector still being opened is closed once it is (nothing of a closed stream stays).
    void this.vad?.then(
      (vad) => vad.close(),
      () => undefined,
    );
    await this.commits.catch(() => undefined);
    try {
      await this.handle?.close();
      if (this.input.keep && this.kept.length > 0 && this.dir)
        await keepLiveTranscript(
          { db: this.deps.db, storage: this.deps.storage, clock: this.deps.clock },
          {
            caller: this.caller,
            model: this.model,
            file: this.file,
            dir: this.dir,
            samples: this.written,
            segments: this.kept,
            credits: this.charged,
            languageCode: this.languageCode,
            startedAt: this.startedAt,
          },
        );
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'a live transcript could not be kept');
    } finally {
      if (this.dir) await fs.rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
