import {
  REALTIME_STT_LIMITS,
  REALTIME_STT_MODEL_ALIAS,
  REALTIME_STT_UNSUPPORTED,
  type RealtimeErrorType,
  type RealtimeSessionConfig,
  RealtimeTranscriptionQuery,
  type RealtimeWord,
  realtimeSampleRate,
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
import { EngineFailure } from '../../providers/engines/engine-pool';
import type { HeardWord } from '../../providers/stt/stt-provider';
import { openSocketSlot } from '../metering';
import { AudioChunkError, decodeAudioChunk } from './realtime-audio';
import {
  prepareTranscriptionStream,
  TranscriptionError,
  type TranscriptionListener,
  type TranscriptionStream,
  transcriptionStreamDepsOf,
} from './transcription-stream';

/*
 * Realtime transcription over a WebSocket (issue 20 item 4, `/v1/speech-to-text/realtime`): the public
 * API's protocol in front of a live transcription stream (transcription-stream.ts, where the audio is
 * heard, committed and charged). This file authenticates the socket, takes its place among the plan's
 * concurrent requests for its life (issue 26 item 9), checks and decodes each message, and speaks the
 * protocol: session_started, partial and committed transcripts, errors and their close codes.
 */

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
  if (error instanceof TranscriptionError) return new SessionError(error.type, error.message);
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

class RealtimeTranscription implements TranscriptionListener {
  private readonly socket: RealtimeSocket;
  private readonly sessionId = newId();
  private config!: RealtimeTranscriptionQuery;
  private principal!: Principal;
  private caller!: RequestCaller;
  private formatRate = 16_000;
  private stream: TranscriptionStream | undefined;

  constructor(
    private readonly deps: AppDeps,
    ws: WebSocket,
    private readonly request: FastifyRequest,
  ) {
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
    // The stream stops, is kept (enable_logging) and lets its files go.
    this.socket.onClose(() => void this.stream?.close());
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
    const c = this.config;
    this.formatRate = realtimeSampleRate(c.audio_format);
    const db = this.deps.database.db;
    const prepared = await prepareTranscriptionStream(transcriptionStreamDepsOf(this.deps), this.caller, {
      // `scribe_v2_realtime`, the public API's realtime model, is the default model here.
      modelId: c.model_id === REALTIME_STT_MODEL_ALIAS ? undefined : c.model_id,
      languageCode: c.language_code ?? undefined,
      inputRate: this.formatRate,
      commitStrategy: c.commit_strategy,
      vadSilenceThresholdSecs: c.vad_silence_threshold_secs,
      vadThreshold: c.vad_threshold,
      minSpeechMs: c.min_speech_duration_ms,
      minSilenceMs: c.min_silence_duration_ms,
      wordTimes: c.include_timestamps,
      keep: c.enable_logging,
    });
    // One of the plan's concurrency places while the socket is open (or rate_limited, closed with 1013):
    // freed as soon as it closes, so a client may open the next one at once.
    const slot = await openSocketSlot(
      { db, leases: this.deps.leases, logger: this.deps.logger },
      this.caller,
    );
    this.socket.onClose(() => void slot.release());
    if (!this.socket.isOpen) return;
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
    const stream = await prepared.open(this, {
      within: slot,
      // A key revoked (or a seat lost) mid-session stops it before more is charged.
      beforeCharge: async () => {
        if (!(await this.deps.auth.stillAuthorized(this.principal)))
          throw new SessionError('auth_error', 'The API key or access of this session was revoked.');
      },
    });
    this.stream = stream;
    if (!this.socket.isOpen) {
      await stream.close();
      return;
    }
    this.socket.send({
      message_type: 'session_started',
      session_id: this.sessionId,
      config: this.sessionConfig(prepared.model.model_id),
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

  /** Sends the protocol's error, then closes (once). */
  failWith(error: unknown): void {
    const failure = toSessionError(error);
    if (
      !(error instanceof SessionError) &&
      !(error instanceof TranscriptionError) &&
      !(error instanceof AppError) &&
      !(error instanceof AudioChunkError)
    )
      this.deps.logger.warn({ err: error }, 'a realtime transcription failed');
    this.socket.fail({ message_type: failure.type, error: failure.message }, failure.code, failure.message);
  }

  // ---- What the stream gives: the protocol's messages ------------------------------------------------

  isOpen(): boolean {
    return this.socket.isOpen;
  }

  partial(text: string): void {
    this.socket.send({ message_type: 'partial_transcript', text });
  }

  committed(text: string): void {
    this.socket.send({ message_type: 'committed_transcript', text });
  }

  committedWithWords(text: string, words: HeardWord[]): void {
    // Sent when word times or the language were asked for (the SDK's rule); words only when asked.
    if (!this.config.include_timestamps && !this.config.include_language_detection) return;
    this.socket.send({
      message_type: 'committed_transcript_with_timestamps',
      text,
      language_code: this.stream?.languageCode ?? 'eng',
      ...(this.config.include_timestamps ? { words: withSpacing(words) } : {}),
    });
  }

  failed(error: unknown): void {
    this.failWith(error);
  }

  private sessionConfig(modelId: string): RealtimeSessionConfig {
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
      model_id: modelId,
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
    const stream = this.stream;
    if (!stream) return;
    await stream.push(samples);
    if (chunk.commit === true) await stream.commit();
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
