import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Resampler } from '@parla/audio';
import {
  DEFAULT_STT_MODEL_ID,
  findSttLanguage,
  REALTIME_STT_LIMITS,
  REALTIME_STT_MODEL_ALIAS,
  REALTIME_STT_UNSUPPORTED,
  type RealtimeErrorType,
  type RealtimeSessionConfig,
  RealtimeTranscriptionQuery,
  type RealtimeWord,
  realtimeSampleRate,
  type SttModel,
  WS_CLOSE,
} from '@parla/contracts';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppDeps } from '../../app-deps';
import type { Principal, RequestCaller } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { JSON_MAX_DEPTH, jsonNestsDeeperThan } from '../../platform/json-depth';
import { describeDuration, RealtimeSocket, type SocketMessage } from '../../platform/realtime/socket';
import { makeScratchDir } from '../../platform/scratch-dirs';
import { EngineFailure } from '../../providers/engines/engine-pool';
import type { RealtimeVoiceActivity } from '../../providers/stt/realtime-vad';
import type { RealtimeVadUpdate } from '../../providers/stt/realtime-vad-thread';
import { STT_SAMPLE_RATE } from '../../providers/stt/stt-engine-protocol';
import type { HeardWord, RealtimeRecogniser } from '../../providers/stt/stt-provider';
import {
  assertAffordable,
  type Budget,
  type MeteringDeps,
  openBudget,
  openSocketSlot,
  type SocketSlot,
} from '../metering';
import { AudioChunkError, decodeAudioChunk } from './realtime-audio';
import { keepLiveTranscript, type LiveSegment } from './realtime-transcripts';
import { assertLanguage, resolveSttModel } from './speech-to-text.service';

/*
 * Realtime transcription (issue 20 item 4, `/v1/speech-to-text/realtime`): audio chunks arrive as base64
 * at the session's rate, are resampled to 16 kHz and appended to the session's scratch file; a stateful
 * voice-activity detector in the server's voice-activity process is fed each new sample once; the recogniser reads
 * spans of the file in the engine children (the pool, with the workspace as tenant). While speech goes
 * on a partial transcript is made at most every REALTIME_STT_LIMITS.partialEverySecs of audio (one at a
 * time, skipped under load); when speech stops the utterance is decoded at once (speculatively), so the
 * committed transcript is ready when the silence threshold has passed. Each commit is charged as it is
 * delivered: 1 credit per started second of the session's audio up to the commit (decision record 0013,
 * 0015); a commit whose answer could not be sent is refunded. The session holds one of the plan's
 * concurrency places while its socket is open (issue 26 item 9); its commits take none of their own.
 */

const RATE = STT_SAMPLE_RATE;
const seconds = (samples: number) => samples / RATE;

/** Speech segments closer than this are recognised as one span (the recogniser hears a sentence whole). */
const JOIN_GAP = Math.round(0.6 * RATE);

type Span = { start: number; end: number };

/** A protocol error: its message type, what the client reads, and the close code. */
class SessionError extends Error {
  constructor(
    readonly type: RealtimeErrorType,
    message: string,
    readonly code: number = WS_CLOSE.policyViolation,
  ) {
    super(message);
  }
}

/** `/v1/speech-to-text/realtime`'s handler: one session per socket. */
export function openRealtimeTranscription(deps: AppDeps, ws: WebSocket, request: FastifyRequest): void {
  const session = new RealtimeTranscription(deps, ws, request);
  session.start().catch((error: unknown) => session.failWith(error));
}

/** The query, checked: the parameters Parla does not do are refused by name, then the rest by the schema. */
export function parseRealtimeQuery(query: Record<string, unknown>): RealtimeTranscriptionQuery {
  const rest: Record<string, unknown> = { ...query };
  for (const [name, noop] of Object.entries(REALTIME_STT_UNSUPPORTED)) {
    if (!(name in rest)) continue;
    const value = rest[name];
    if (noop !== undefined && typeof value === 'string' && value.toLowerCase() === noop) {
      delete rest[name];
      continue;
    }
    throw new SessionError('invalid_request', `${name} is not supported by this server.`);
  }
  const parsed = RealtimeTranscriptionQuery.safeParse(rest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || (issue && 'keys' in issue ? String(issue.keys) : 'query');
    const message =
      issue?.code === 'unrecognized_keys'
        ? `Unknown query parameter: ${issue.keys.join(', ')}.`
        : `${field}: ${issue?.message ?? 'invalid'}.`;
    throw new SessionError('invalid_request', message);
  }
  return parsed.data;
}

/** The message a failure sends (anything not ours: the transcriber failed). */
function toSessionError(error: unknown): SessionError {
  if (error instanceof SessionError) return error;
  if (error instanceof AudioChunkError) return new SessionError('input_error', error.message);
  if (error instanceof AppError) {
    switch (error.code) {
      case 'invalid_api_key':
      case 'unauthorized':
      case 'workspace_access_revoked':
        return new SessionError('auth_error', error.message);
      case 'quota_exceeded':
      case 'payment_required':
        return new SessionError('quota_exceeded', error.message);
      case 'too_many_concurrent_requests':
        // The plan's limit, not the server's capacity: the public API's `rate_limited`.
        return new SessionError('rate_limited', error.message, WS_CLOSE.tryAgainLater);
      case 'invalid_request':
      case 'unsupported_language':
        return new SessionError('invalid_request', error.message);
      default:
        return new SessionError('error', error.message, WS_CLOSE.internalError);
    }
  }
  if (error instanceof EngineFailure && error.reason === 'busy')
    return new SessionError(
      'resource_exhausted',
      'Every speech engine of the server is busy; the session was closed. Try again in a moment.',
      WS_CLOSE.tryAgainLater,
    );
  return new SessionError(
    'transcriber_error',
    'The transcription failed; what was not delivered was not charged.',
    WS_CLOSE.internalError,
  );
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

class RealtimeTranscription {
  private readonly socket: RealtimeSocket;
  private readonly metering: Pick<MeteringDeps, 'db' | 'events' | 'clock' | 'leases' | 'logger'>;
  /** The session's place among the plan's concurrent requests (its commits run within it). */
  private slot: SocketSlot | undefined;
  private readonly sessionId = newId();
  private readonly cancel = new AbortController();
  private config!: RealtimeTranscriptionQuery;
  private model!: SttModel;
  private principal!: Principal;
  private caller!: RequestCaller;
  private recogniser!: RealtimeRecogniser;
  private language: string | undefined;
  private formatRate = RATE;
  private resampler!: Resampler;
  private dir: string | undefined;
  private file = '';
  private handle: FileHandle | undefined;
  /**
   * The session's voice-activity detector, opened with its first audio: an idle session holds none (each
   * is an ONNX Runtime session of ~5.5 MB in the voice-activity process; issue 26 item 9).
   */
  private vad: Promise<RealtimeVoiceActivity> | undefined;
  /** The making of the session's file and detector (finish waits for it). */
  private opening: Promise<void> = Promise.resolve();
  private readonly startedAt: Date;
  /** 16 kHz samples written to the session's file. */
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
  /** Audio whose commit was delivered (or given up). */
  private transcribedUpTo = 0;
  /** Credits charged so far: ceil(seconds up to the last delivered commit). */
  private charged = 0;
  private readonly kept: LiveSegment[] = [];
  private lastCommitPoint = 0;
  /** Audio committed so far (samples): every sample up to each commit, less silence skipped (vad). */
  private committed = 0;

  constructor(
    private readonly deps: AppDeps,
    ws: WebSocket,
    private readonly request: FastifyRequest,
  ) {
    this.metering = {
      db: deps.database.db,
      events: deps.events,
      clock: deps.clock,
      leases: deps.leases,
      logger: deps.logger,
    };
    this.startedAt = deps.clock.now();
    this.socket = new RealtimeSocket(ws, {
      logger: deps.logger,
      maxDurationMs: deps.config.realtime.maxSocketMs,
      onExpired: () =>
        this.failWith(
          new SessionError(
            'session_time_limit_exceeded',
            `A session lasts at most ${describeDuration(deps.config.realtime.maxSocketMs)}; open a new one to go on.`,
          ),
        ),
    });
    this.socket.onClose(() => {
      void this.finish();
    });
  }

  async start(): Promise<void> {
    this.config = parseRealtimeQuery(this.request.query as Record<string, unknown>);
    const headers = this.request.headers;
    this.principal = await this.deps.auth.authenticateSocket({
      apiKey: typeof headers['xi-api-key'] === 'string' ? headers['xi-api-key'] : undefined,
      authorization: headers.authorization,
      token: this.config.token,
      tokenType: 'realtime_scribe',
    });
    this.caller = {
      userId: this.principal.userId,
      workspaceId: this.principal.workspaceId,
      apiKeyId: this.principal.apiKeyId,
      requestId: this.request.id,
    };
    const stt = this.deps.providers.stt;
    if (!stt.realtime)
      throw new SessionError('invalid_request', 'This server does not transcribe live audio.');
    this.recogniser = stt.realtime;
    const modelId =
      this.config.model_id === REALTIME_STT_MODEL_ALIAS ? DEFAULT_STT_MODEL_ID : this.config.model_id;
    this.model = resolveSttModel(stt, modelId);
    if (this.config.language_code) {
      const language = findSttLanguage(this.config.language_code);
      if (!language)
        throw new SessionError('invalid_request', `Unknown language_code "${this.config.language_code}".`);
      assertLanguage(stt, this.model, language.iso1 ?? language.code);
      this.language = language.iso1 ?? language.code;
    }
    await assertAffordable(this.metering, this.caller, 1, 'mp3_44100_128');
    // One of the plan's concurrency places while the socket is open (or rate_limited, closed with 1013):
    // freed as soon as it closes, so a client may open the next one at once.
    const slot = await openSocketSlot(this.metering, this.caller);
    this.slot = slot;
    this.socket.onClose(() => void slot.release());
    if (!this.socket.isOpen) return;
    this.formatRate = realtimeSampleRate(this.config.audio_format);
    this.resampler = new Resampler(this.formatRate, RATE);
    // Audio may arrive while the session's file is made: it is handled, in order, once session_started
    // went out.
    let started: () => void = () => undefined;
    const sessionStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    this.socket.onClose(() => started());
    this.socket.onMessage(async (message) => {
      await sessionStarted;
      if (!this.socket.isOpen) return;
      await this.receive(message).catch((error: unknown) => this.failWith(error));
    });
    this.opening = this.openResources();
    await this.opening;
    if (!this.socket.isOpen) return;
    this.socket.send({
      message_type: 'session_started',
      session_id: this.sessionId,
      config: this.sessionConfig(),
    });
    const idleMs = this.deps.config.realtime.sttIdleMs;
    this.socket.setIdleTimeout(idleMs, () =>
      this.failWith(
        new SessionError(
          'error',
          `No audio for ${describeDuration(idleMs)}; the session was closed.`,
          WS_CLOSE.policyViolation,
        ),
      ),
    );
    started();
  }

  /** The session's scratch file (the close waits for it, then removes it). */
  private async openResources(): Promise<void> {
    this.dir = await makeScratchDir('rt-stt-');
    this.file = path.join(this.dir, 'audio.s16');
    this.handle = await fs.open(this.file, 'w', 0o600);
  }

  /** The voice-activity detector, opened by the first audio (the first of the server starts its process). */
  private voiceActivity(): Promise<RealtimeVoiceActivity> {
    this.vad ??= this.recogniser.openVoiceActivity({
      threshold: this.config.vad_threshold,
      minSpeechSecs: this.config.min_speech_duration_ms / 1000,
      minSilenceSecs: this.config.min_silence_duration_ms / 1000,
    });
    return this.vad;
  }

  /** Sends the protocol's error, then closes (once). */
  failWith(error: unknown): void {
    const failure = toSessionError(error);
    if (
      !(error instanceof SessionError) &&
      !(error instanceof AppError) &&
      !(error instanceof AudioChunkError)
    )
      this.deps.logger.warn({ err: error }, 'a realtime transcription failed');
    this.socket.fail({ message_type: failure.type, error: failure.message }, failure.code, failure.message);
  }

  private sessionConfig(): RealtimeSessionConfig {
    const c = this.config;
    return {
      sample_rate: this.formatRate,
      audio_format: c.audio_format,
      language_code: c.language_code ?? null,
      commit_strategy: c.commit_strategy,
      vad_silence_threshold_secs: c.vad_silence_threshold_secs,
      vad_threshold: c.vad_threshold,
      min_speech_duration_ms: c.min_speech_duration_ms,
      min_silence_duration_ms: c.min_silence_duration_ms,
      model_id: this.model.model_id,
      enable_logging: c.enable_logging,
      include_timestamps: c.include_timestamps,
      include_language_detection: c.include_language_detection,
    };
  }

  /** One client message (they come one at a time, in order). */
  private async receive(message: SocketMessage): Promise<void> {
    this.socket.touch();
    if (message.bytes > REALTIME_STT_LIMITS.maxChunkBytes)
      throw new SessionError(
        'chunk_size_exceeded',
        `A message may be at most ${REALTIME_STT_LIMITS.maxChunkBytes / 1024 / 1024} MB; send the audio in smaller chunks.`,
      );
    if (!('text' in message))
      throw new SessionError(
        'input_error',
        'Send JSON text messages; binary frames are not part of this protocol.',
      );
    // The app's JSON depth rule (json-depth.ts): a deeper value is never built, nor described in an error.
    if (jsonNestsDeeperThan(message.text, JSON_MAX_DEPTH))
      throw new SessionError('input_error', `A message nests at most ${JSON_MAX_DEPTH} levels.`);
    let body: unknown;
    try {
      body = JSON.parse(message.text);
    } catch {
      throw new SessionError('input_error', 'The message is not JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new SessionError('input_error', 'The message must be a JSON object.');
    const chunk = body as Record<string, unknown>;
    if (chunk.message_type !== 'input_audio_chunk')
      throw new SessionError(
        'input_error',
        `Unknown message_type ${JSON.stringify(chunk.message_type ?? null)}: send input_audio_chunk.`,
      );
    if (typeof chunk.audio_base_64 !== 'string')
      throw new SessionError(
        'input_error',
        'audio_base_64 must be a string (base64 audio, or "" with commit).',
      );
    if (chunk.commit !== undefined && chunk.commit !== null && typeof chunk.commit !== 'boolean')
      throw new SessionError('input_error', 'commit must be true or false.');
    if (
      chunk.sample_rate !== undefined &&
      chunk.sample_rate !== null &&
      chunk.sample_rate !== this.formatRate
    )
      throw new SessionError(
        'input_error',
        `sample_rate ${JSON.stringify(chunk.sample_rate)} does not match the session's audio_format ${this.config.audio_format} (${this.formatRate} Hz).`,
      );
    if (
      chunk.previous_text !== undefined &&
      chunk.previous_text !== null &&
      typeof chunk.previous_text !== 'string'
    )
      throw new SessionError('input_error', 'previous_text must be a string.');
    // previous_text is accepted and not used: the recogniser takes no prompt.
    const samples = decodeAudioChunk(
      chunk.audio_base_64,
      this.config.audio_format === 'ulaw_8000' ? 'ulaw' : 'pcm',
    );
    if (samples.length > 0) await this.append(this.resampler.push(samples));
    if (chunk.commit === true) {
      await this.append(this.resampler.flush());
      this.commit(this.written);
    }
  }

  /** Appends 16 kHz audio to the session's file, and feeds it to the voice-activity detector. */
  private async append(samples: Int16Array): Promise<void> {
    if (samples.length === 0 || !this.handle) return;
    const vad = await this.voiceActivity();
    const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    await this.handle.write(bytes, 0, bytes.length, this.written * 2);
    this.written += samples.length;
    // Committed audio still waiting for its transcript, and audio not committed yet (at most
    // maxUtteranceSecs of it: the server commits then).
    const backlog = this.lastCommitPoint - this.transcribedUpTo + (this.written - this.utterance.from);
    if (seconds(backlog) > REALTIME_STT_LIMITS.maxBacklogSecs)
      throw new SessionError(
        'queue_overflow',
        `More than ${REALTIME_STT_LIMITS.maxBacklogSecs} s of audio is waiting to be transcribed; send audio no faster than real time.`,
      );
    const update = await vad.accept(samples);
    if (!this.socket.isOpen) return;
    this.onVoice(update);
    if (seconds(this.written - this.utterance.from) >= REALTIME_STT_LIMITS.maxUtteranceSecs)
      this.commit(this.written);
  }

  private get thresholdSamples(): number {
    return Math.round(this.config.vad_silence_threshold_secs * RATE);
  }

  private onVoice(update: RealtimeVadUpdate): void {
    const vadMode = this.config.commit_strategy === 'vad';
    for (const found of update.segments) {
      if (found.end <= this.utterance.from) continue;
      const segment = { start: Math.max(found.start, this.utterance.from), end: found.end };
      const last = this.utterance.segments.at(-1);
      // A pause of the threshold between two segments: the first utterance ended there.
      if (vadMode && last && segment.start - last.end >= this.thresholdSamples)
        this.commit(last.end + this.thresholdSamples);
      this.utterance.segments.push(segment);
    }
    const wasSpeaking = this.speaking;
    this.speaking = update.speaking;
    if (this.speaking && !wasSpeaking) {
      // Detected after min_speech_duration of speech (and a window): it began about that long ago.
      const back = Math.round((this.config.min_speech_duration_ms / 1000 + 0.1) * RATE);
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
      const margin = Math.round((this.config.min_speech_duration_ms / 1000 + 0.5) * RATE);
      this.utterance.from = Math.max(this.utterance.from, update.fed - margin);
    }
    if (vadMode && !this.speaking && last) {
      this.speculate();
      if (update.fed - last.end >= this.thresholdSamples) this.commit(last.end + this.thresholdSamples);
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

  /** `signal` null: not cancelled when the session closes. */
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
    // A partial still waiting for an engine gives way: the commit is what the client waits for.
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
        // Sent only while its utterance is still the one being heard.
        if (this.utterance !== u) return;
        const text = heard
          .map((h) => h.text)
          .filter(Boolean)
          .join(' ');
        if (text) this.socket.send({ message_type: 'partial_transcript', text });
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

  /** Commits the utterance up to `point` (samples): its transcript is made, sent and charged in order. */
  private commit(point: number): void {
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
      .catch((error: unknown) => this.failWith(error))
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
    if (!this.socket.isOpen) return;
    // A key revoked (or a seat lost) mid-session stops it before more is charged.
    if (!(await this.deps.auth.stillAuthorized(this.principal)))
      throw new SessionError('auth_error', 'The API key or access of this session was revoked.');
    // 1 credit per started second of the audio committed so far, less what was charged already.
    const owed = Math.ceil(seconds(through) - 1e-9) - this.charged;
    // The text (usually decoded already, speculatively) while the credits are reserved.
    const recognised =
      spans.length === 0 ? Promise.resolve([]) : (speculative ?? this.recognise(spans, 'none'));
    recognised.catch(() => undefined);
    let budget: Budget | undefined;
    if (owed > 0)
      budget = await openBudget(
        this.metering,
        this.caller,
        { kind: 'speech_to_text', credits: owed, modelId: this.model.model_id },
        { within: this.slot },
      );
    let delivered = false;
    let settled = false;
    try {
      const heard = await recognised;
      const text = heard
        .map((h) => h.text)
        .filter(Boolean)
        .join(' ');
      if (!this.socket.isOpen) {
        await budget?.refund();
        return;
      }
      // The text first, as soon as it is known: word times take a second pass (alignment).
      this.socket.send({ message_type: 'committed_transcript', text });
      delivered = true;
      let words: HeardWord[] = [];
      const wanted = this.config.include_timestamps || this.config.enable_logging;
      if (text && wanted) {
        try {
          // Not cancelled by the close: a session kept as a transcript keeps its last words' times.
          words = (await this.recognise(spans, 'word', null)).flatMap((h) => h.words);
        } catch (error) {
          if (this.config.include_timestamps && this.socket.isOpen) throw error;
        }
      }
      // Sent when word times or the language were asked for (the SDK's rule); words only when asked.
      if (this.config.include_timestamps || this.config.include_language_detection)
        this.socket.send({
          message_type: 'committed_transcript_with_timestamps',
          text,
          language_code: this.languageCode(),
          ...(this.config.include_timestamps ? { words: withSpacing(words) } : {}),
        });
      settled = true;
      await this.settle(budget, owed);
      this.transcribedUpTo = Math.max(this.transcribedUpTo, point);
      const first = spans[0];
      const lastSpan = spans.at(-1);
      if (text && first && lastSpan)
        this.kept.push({ start: seconds(first.start), end: seconds(lastSpan.end), text, words });
    } catch (error) {
      // The transcript's text reached the client: charged; otherwise nothing is.
      if (delivered && !settled) await this.settle(budget, owed);
      else if (!delivered) await budget?.refund();
      throw error;
    }
  }

  private async settle(budget: Budget | undefined, owed: number): Promise<void> {
    await budget?.settle();
    if (owed > 0) this.charged += owed;
  }

  private languageCode(): string {
    return findSttLanguage(this.language ?? 'en')?.code ?? 'eng';
  }

  /** The socket closed: work still running stops (and is refunded), the session is kept, files go. */
  private async finish(): Promise<void> {
    this.cancel.abort();
    await this.opening.catch(() => undefined);
    // A detector still being opened is closed once it is (nothing of a closed session stays).
    void this.vad?.then(
      (vad) => vad.close(),
      () => undefined,
    );
    await this.commits.catch(() => undefined);
    try {
      await this.handle?.close();
      if (this.config?.enable_logging && this.kept.length > 0 && this.dir)
        await keepLiveTranscript(
          {
            db: this.deps.database.db,
            storage: this.deps.storage,
            clock: this.deps.clock,
          },
          {
            caller: this.caller,
            model: this.model,
            file: this.file,
            dir: this.dir,
            samples: this.written,
            segments: this.kept,
            credits: this.charged,
            languageCode: this.languageCode(),
            startedAt: this.startedAt,
          },
        );
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'a realtime transcript could not be kept');
    } finally {
      if (this.dir) await fs.rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

/** Words with the spacings between them, as the public API's realtime words. */
function withSpacing(words: HeardWord[]): RealtimeWord[] {
  const out: RealtimeWord[] = [];
  const round = (s: number) => Math.round(s * 1000) / 1000;
  words.forEach((word, i) => {
    const before = words[i - 1];
    if (before) {
      const start = round(Math.min(before.end, word.start));
      out.push({ text: ' ', start, end: Math.max(start, round(word.start)), type: 'spacing' });
    }
    out.push({ text: word.text, start: round(word.start), end: round(word.end), type: 'word' });
  });
  return out;
}
