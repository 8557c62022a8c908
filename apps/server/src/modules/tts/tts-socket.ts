import type { CharacterAlignment } from '@parla/audio';
import { NO_SENTENCE_END } from '@parla/audio';
import {
  DEFAULT_CHUNK_LENGTH_SCHEDULE,
  MAX_TTS_CONTEXTS,
  type TtsSocketAlignment,
  TtsSocketClientMessage,
  type TtsSocketError,
  TtsSocketQuery,
  WS_CLOSE,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppDeps } from '../../app-deps';
import type { Principal } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import { JSON_MAX_DEPTH, jsonNestsDeeperThan } from '../../platform/json-depth';
import { describeDuration, RealtimeSocket, type SocketMessage } from '../../platform/realtime/socket';
import { socketRoute } from '../../platform/realtime/websocket';
import { EngineFailure } from '../../providers/engines/engine-pool';
import { assertAffordable, openSocketSlot, runDelivered, type SocketSlot } from '../metering';
import { type GeneratedAudioTrace, traceGeneratedAudio } from '../provenance';
import { findMarkup, MarkupError } from './markup';
import {
  normalizeFor,
  pronunciationGrowthProblem,
  type SpeechSentence,
  StreamAligner,
  speakSentences,
} from './speech-pipeline';
import { StreamedAudio } from './streamed-audio';
import {
  creditCost,
  prepareSpeech,
  type SpeechPlan,
  type TtsCaller,
  type TtsDeps,
  workOf,
} from './tts.service';
import { ttsDepsOf } from './tts-http';

/*
 * Text to speech over WebSockets (issue 20 items 2 and 3): `stream-input` speaks text as it is written,
 * `multi-stream-input` does so for several contexts on one socket. Text is buffered per context; a
 * complete sentence is spoken as soon as it is there, a run without sentence ends once it reaches the
 * `chunk_length_schedule` length (unless `auto_mode`), and everything buffered on `flush` or at the end.
 * Each context's generations run in order through one encoder, so its audio messages are consecutive
 * pieces of one stream in the socket's `output_format`, each with the alignment of its characters (ms
 * from the start of that message's audio). The socket holds one of the plan's concurrency places while
 * it is open (its generations take none of their own); each sentence's characters are charged when its
 * audio has been sent, so a socket that drops mid-generation pays for the sentences it was sent, no more
 * (issue 26 item 9).
 */

/** The largest client message read (a text chunk of up to 100,000 characters, with room for JSON). */
export const MAX_TTS_MESSAGE_BYTES = 1024 * 1024;
/** Text a context may hold unspoken (buffered or waiting to be spoken): a client writing faster is stopped. */
export const MAX_TTS_PENDING_CHARACTERS = 50_000;

const INVALID_MESSAGE = 'invalid_input_message';

/** A protocol error: sent as `{message, error, code}`, then the socket closes with `code`. */
class SocketError extends Error {
  constructor(
    readonly error: string,
    message: string,
    readonly code: number = WS_CLOSE.policyViolation,
  ) {
    super(message);
  }
}

/** An error on the way (metering, auth, engines) as the protocol sends it. */
function toSocketError(error: unknown): SocketError {
  if (error instanceof SocketError) return error;
  if (error instanceof AppError) {
    const code =
      error.code === 'too_many_concurrent_requests' || error.code === 'rate_limited'
        ? WS_CLOSE.tryAgainLater
        : error.status >= 500
          ? WS_CLOSE.internalError
          : WS_CLOSE.policyViolation;
    return new SocketError(error.code, error.message, code);
  }
  if (error instanceof EngineFailure) {
    return new SocketError(
      'service_unavailable',
      'The speech engine failed on this text, twice. It was not charged; please try again.',
      WS_CLOSE.internalError,
    );
  }
  return new SocketError('internal_error', 'Something went wrong on our side.', WS_CLOSE.internalError);
}

/** `CharacterAlignment` (seconds from the stream's start) as the socket sends it: ms from `offsetMs`. */
function toSocketAlignment(alignment: CharacterAlignment, offsetMs: number): TtsSocketAlignment {
  const starts = alignment.character_start_times_seconds.map((s) =>
    Math.max(0, Math.round(s * 1000 - offsetMs)),
  );
  return {
    chars: alignment.characters,
    charStartTimesMs: starts,
    charDurationsMs: alignment.character_end_times_seconds.map((end, i) =>
      Math.max(0, Math.round(end * 1000 - offsetMs) - (starts[i] ?? 0)),
    ),
  };
}

/**
 * Where a buffer may be cut for a generation: after its last complete sentence (a sentence end followed
 * by white space), else — when `atLength` — after its last word that keeps the piece within the buffer.
 * Never inside a `<…>` tag. 0: not yet.
 */
export function cutPoint(buffer: string, atLength: boolean): number {
  // Where no cut may fall: inside a tag, or between an element's opening and closing tags.
  const forbidden: [number, number][] = [];
  const open: number[] = [];
  for (const tag of buffer.matchAll(/<[^>]*>?/g)) {
    const end = tag.index + tag[0].length;
    forbidden.push([tag.index, tag[0].endsWith('>') ? end : buffer.length + 1]);
    if (tag[0].startsWith('</')) {
      const from = open.pop();
      if (from !== undefined) forbidden.push([from, end]);
    } else if (!tag[0].endsWith('/>')) open.push(tag.index);
  }
  for (const from of open) forbidden.push([from, buffer.length + 1]);
  const allowed = (at: number) => forbidden.every(([from, to]) => at <= from || at >= to);
  let sentenceEnd = 0;
  for (const match of buffer.matchAll(/[.!?…]+["'”’)\]]*\s+/g)) {
    const end = match.index + match[0].length;
    if (allowed(end) && !NO_SENTENCE_END.test(buffer.slice(0, end).trimEnd())) sentenceEnd = end;
  }
  if (sentenceEnd > 0 || !atLength) return sentenceEnd;
  for (let at = buffer.length; at > 0; at -= 1) {
    if (/\s/.test(buffer[at - 1] ?? '') && !/\s/.test(buffer[at] ?? '') && allowed(at)) return at;
  }
  return 0;
}

interface SessionContext {
  tts: TtsDeps;
  deps: AppDeps;
  socket: RealtimeSocket;
  query: TtsSocketQuery;
  caller: TtsCaller;
  principal: Principal;
  multi: boolean;
  /** The socket's place among the plan's concurrent requests, held while it is open. */
  slot: SocketSlot;
}

/** One context of a socket: its text, its generations in order, its encoder. */
class SpeechContext {
  private buffer = '';
  private generations = 0;
  /** Characters cut from the buffer and not yet spoken. */
  private queued = 0;
  private chain: Promise<void> = Promise.resolve();
  private encoder: StreamedAudio | undefined;
  private readonly cancel = new AbortController();
  private closed = false;
  private running = 0;
  private schedule: number[];

  constructor(
    private readonly session: SessionContext,
    readonly id: string | undefined,
    private plan: SpeechPlan,
    schedule: readonly number[] | undefined,
    private readonly onFailure: (error: SocketError) => void,
  ) {
    this.schedule = [...(schedule ?? DEFAULT_CHUNK_LENGTH_SCHEDULE)];
  }

  get busy(): boolean {
    return this.running > 0 || this.queued > 0;
  }

  setSchedule(schedule: readonly number[] | undefined): void {
    if (schedule) this.schedule = [...schedule];
  }

  setVoiceSettings(settings: TtsSocketClientMessage['voice_settings']): void {
    if (!settings) return;
    const current = this.plan.request.settings;
    this.plan = {
      ...this.plan,
      request: {
        ...this.plan.request,
        settings: {
          speed: settings.speed ?? current.speed,
          stability: settings.stability ?? current.stability,
          style: settings.style ?? current.style,
          useSpeakerBoost: settings.use_speaker_boost ?? current.useSpeakerBoost,
        },
      },
    };
  }

  /** Adds text; speaks what is ready (everything with `flush`). */
  add(text: string, flush: boolean): void {
    if (this.closed) return;
    this.buffer += text;
    if (this.buffer.length + this.queued > MAX_TTS_PENDING_CHARACTERS) {
      throw new SocketError(
        'text_buffer_exceeded',
        `More than ${MAX_TTS_PENDING_CHARACTERS} characters are waiting to be spoken in this context; send text no faster than it is spoken.`,
      );
    }
    for (;;) {
      const threshold = this.schedule[Math.min(this.generations, this.schedule.length - 1)] ?? 0;
      const atLength = !this.session.query.auto_mode && this.buffer.length >= threshold;
      const cut = flush ? this.buffer.length : cutPoint(this.buffer, atLength);
      if (cut <= 0) break;
      const piece = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut);
      if (piece.trim()) this.enqueue(piece);
      if (flush) break;
    }
  }

  /** Speaks what is left, then ends the stream: the encoder's last bytes, then `isFinal`. */
  async finish(): Promise<void> {
    this.add('', true);
    await this.chain;
    if (this.closed) return;
    const encoder = this.encoder;
    this.encoder = undefined;
    if (encoder) await encoder.finish();
    this.session.socket.send(
      this.id === undefined ? { isFinal: true } : { isFinal: true, contextId: this.id },
    );
  }

  /** Stops at once (barge-in, or the socket went away): nothing more is spoken or sent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer = '';
    this.cancel.abort();
    this.encoder?.abandon();
    this.encoder = undefined;
  }

  private enqueue(piece: string): void {
    this.queued += piece.length;
    this.generations += 1;
    this.chain = this.chain
      .then(() => this.generate(piece))
      .catch((error: unknown) => {
        if (this.closed) return;
        this.close();
        this.onFailure(toSocketError(error));
      })
      .finally(() => {
        this.queued -= piece.length;
      });
  }

  /**
   * One generation: checked, its credits reserved, each sentence's characters charged once its audio has
   * been sent; what was not sent (the client dropped, the context was closed) is given back.
   */
  private async generate(piece: string): Promise<void> {
    if (this.closed) return;
    const { tts, socket, caller, principal, deps, query, slot } = this.session;
    try {
      findMarkup(piece);
    } catch (error) {
      if (error instanceof MarkupError) throw new SocketError('invalid_request', error.message);
      throw error;
    }
    // The piece as sent (its spaces too, so the alignments of consecutive messages join into the text);
    // charged for its characters without the white space around it.
    const request = { ...this.plan.request, text: piece };
    const growth = pronunciationGrowthProblem(request);
    if (growth) throw new SocketError('invalid_request', growth);
    const normalized = normalizeFor(request);
    if (!normalized.text.trim()) return; // only tags or symbols: nothing to speak, nothing charged
    const characters = piece.trim().length;
    const leading = piece.length - piece.trimStart().length;
    const plan = { ...this.plan, characterCost: creditCost(this.plan.model, characters) };
    this.running += 1;
    // The encoder and the first sentence start now, while the caller, the credits and the concurrency slot
    // are checked (as the HTTP stream does): those database round trips would otherwise sit before the
    // first audio. Nothing is sent or charged unless they pass; if not, what has not started is cancelled.
    const encoder = this.ensureEncoder();
    const cancel = new AbortController();
    const stop = () => cancel.abort();
    this.cancel.signal.addEventListener('abort', stop);
    const sentences = speakSentences(tts.engines, request, normalized, {
      signal: cancel.signal,
      tenant: caller.workspaceId,
      firstAlone: true,
    });
    const first = sentences.next();
    first.catch(() => undefined);
    let sent: GeneratedAudioTrace | undefined;
    try {
      if (!(await deps.auth.stillAuthorized(principal))) {
        throw new SocketError(
          'invalid_api_key',
          'This API key or session no longer has access; the socket was closed.',
        );
      }
      await assertAffordable(tts, caller, plan.characterCost, query.output_format);
      // What is sent is recognisable if it is played back (issue 26 item 7).
      sent = traceGeneratedAudio(tts, { workspaceId: caller.workspaceId, source: 'text_to_speech_socket' });
      await runDelivered(tts, caller, workOf(plan), { within: slot }, async (deliver) => {
        const aligner = new StreamAligner(request.text, normalized);
        let offsetMs = 0;
        /** Characters of the piece whose audio has been sent, and the credits charged for them. */
        let sentCharacters = 0;
        let charged = 0;
        const send = async (sentence: SpeechSentence) => {
          if (this.closed || !(await socket.writable())) throw new Error('the socket closed');
          const timing = aligner.next(sentence);
          const lineOffset = offsetMs;
          offsetMs += (sentence.samples.length / sentence.sampleRate) * 1000;
          await encoder.write(sentence.samples, sentence.sampleRate, {
            alignment: toSocketAlignment(timing.alignment, lineOffset),
            normalizedAlignment: toSocketAlignment(timing.normalized_alignment, lineOffset),
          });
          // Not sent: the socket or the context closed while it was encoded.
          if (this.closed || !socket.isOpen) throw new Error('the socket closed');
          sent?.add(sentence);
          // Sent: its characters (the piece's, without the white space around it) are charged now and
          // never given back, as the HTTP stream charges what it starts (issue 26 item 9).
          sentCharacters += timing.alignment.characters.join('').length;
          const spoken = Math.min(characters, Math.max(0, sentCharacters - leading));
          // Nothing yet, or all of it: the end of the generation keeps the whole reservation.
          if (spoken === 0 || spoken === characters) return;
          const owed = Math.min(plan.characterCost, creditCost(plan.model, spoken)) - charged;
          charged += owed;
          await deliver(owed);
        };
        const firstSentence = (await first).value;
        if (firstSentence) await send(firstSentence);
        // Every sentence's audio was sent: the generation is charged in full (runDelivered settles it).
        for await (const sentence of sentences) await send(sentence);
      });
    } catch (error) {
      cancel.abort();
      throw error;
    } finally {
      sent?.end();
      this.cancel.signal.removeEventListener('abort', stop);
      this.running -= 1;
    }
  }

  private ensureEncoder(): StreamedAudio {
    this.encoder ??= new StreamedAudio(
      this.session.query.output_format,
      'timestamps',
      this.session.deps.config.realtime.maxSocketMs,
      ({ audio, alignment, normalizedAlignment }) => {
        if (this.closed) return;
        const message: Record<string, unknown> = { audio: audio.toString('base64') };
        if (normalizedAlignment) message.normalizedAlignment = normalizedAlignment;
        if (alignment) message.alignment = alignment;
        if (this.id !== undefined) message.contextId = this.id;
        this.session.socket.send(message);
      },
    );
    return this.encoder;
  }
}

/** The credentials of the opening request (headers, or the address a browser can set). */
function openingCredentials(request: FastifyRequest, query: TtsSocketQuery) {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const authorization = header('authorization') ?? query.authorization;
  return {
    apiKey: header('xi-api-key'),
    authorization:
      authorization && !/^Bearer\s/i.test(authorization) ? `Bearer ${authorization}` : authorization,
    token: query.single_use_token ?? query.token,
  };
}

/** Opens one text-to-speech socket (single or multi-context). */
function openTtsSocket(deps: AppDeps, ws: WebSocket, request: FastifyRequest, multi: boolean): void {
  const tts = ttsDepsOf(deps);
  // REALTIME_MAX_SECONDS: 60 minutes unless the operator says otherwise.
  const maxDurationMs = deps.config.realtime.maxSocketMs;
  const socket: RealtimeSocket = new RealtimeSocket(ws, {
    logger: deps.logger,
    maxDurationMs,
    onExpired: () =>
      fail(
        new SocketError(
          'max_duration_exceeded',
          `This socket reached its maximum duration of ${describeDuration(maxDurationMs)}.`,
        ),
      ),
  });
  const fail = (error: SocketError) => {
    for (const context of contexts.values()) context.close();
    const message: TtsSocketError = { message: error.message, error: error.error, code: error.code };
    socket.fail(message, error.code, error.message);
  };
  const contexts = new Map<string, SpeechContext>();
  socket.onClose(() => {
    for (const context of contexts.values()) context.close();
  });

  const parsedQuery = TtsSocketQuery.safeParse(request.query);
  if (!parsedQuery.success) {
    const issue = parsedQuery.error.issues[0];
    fail(
      new SocketError(
        'invalid_request',
        `Query parameter ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
      ),
    );
    return;
  }
  const query = parsedQuery.data;
  const voiceId = (request.params as { voice_id: string }).voice_id;
  const credentials = openingCredentials(request, query);
  const hasOpeningCredentials = Boolean(credentials.apiKey || credentials.authorization || credentials.token);

  let session: SessionContext | undefined;
  let first = true;
  let firstSettings: {
    voice_settings?: TtsSocketClientMessage['voice_settings'];
    schedule?: number[];
    pronunciation_dictionary_locators?: TtsSocketClientMessage['pronunciation_dictionary_locators'];
  } = {};
  let ending = false;

  const authenticate = async (fromMessage?: TtsSocketClientMessage): Promise<SessionContext> => {
    const principal = await deps.auth.authenticateSocket({
      ...(fromMessage
        ? {
            apiKey: fromMessage.xi_api_key ?? fromMessage['xi-api-key'],
            authorization: fromMessage.authorization
              ? /^Bearer\s/i.test(fromMessage.authorization)
                ? fromMessage.authorization
                : `Bearer ${fromMessage.authorization}`
              : undefined,
            token: fromMessage.single_use_token,
          }
        : credentials),
      tokenType: 'tts_websocket',
    });
    const caller: TtsCaller = {
      userId: principal.userId,
      workspaceId: principal.workspaceId,
      apiKeyId: principal.apiKeyId,
      requestId: request.id,
    };
    // Credits left and the plan's output format are checked at once; the voice, model and language with
    // the first message (its context's plan). Either ends the socket with the HTTP call's error.
    await assertAffordable(tts, caller, 1, query.output_format);
    // One of the plan's concurrency places for as long as the socket is open (or
    // too_many_concurrent_requests, closed with 1013); given back at the close, whichever way it comes.
    const slot = await openSocketSlot(tts, caller);
    socket.onClose(() => void slot.release());
    return { tts, deps, socket, query, caller, principal, multi, slot };
  };

  const planFor = async (s: SessionContext, message: TtsSocketClientMessage): Promise<SpeechPlan> => {
    return prepareSpeech(tts, s.caller, {
      voiceId,
      body: {
        // A stand-in text: the plan's checks of the voice, model and language; each piece brings its own.
        text: 'a',
        model_id: query.model_id,
        language_code: query.language_code ?? null,
        voice_settings: message.voice_settings ?? firstSettings.voice_settings ?? null,
        // A context's own dictionaries, else the first message's, else the workspace's default list.
        pronunciation_dictionary_locators:
          message.pronunciation_dictionary_locators ??
          firstSettings.pronunciation_dictionary_locators ??
          null,
        apply_text_normalization: query.apply_text_normalization,
        seed: query.seed ?? null,
      },
    });
  };

  const contextFor = async (s: SessionContext, message: TtsSocketClientMessage): Promise<SpeechContext> => {
    const key = multi ? (message.context_id ?? 'default') : '';
    const existing = contexts.get(key);
    if (existing) return existing;
    if (contexts.size >= MAX_TTS_CONTEXTS) {
      throw new SocketError(
        'max_contexts_exceeded',
        `At most ${MAX_TTS_CONTEXTS} contexts may be open on one socket; close one first (close_context).`,
      );
    }
    const context = new SpeechContext(
      s,
      multi ? key : undefined,
      await planFor(s, message),
      message.generation_config?.chunk_length_schedule ?? firstSettings.schedule,
      fail,
    );
    contexts.set(key, context);
    return context;
  };

  const handle = async (raw: SocketMessage) => {
    if (raw.bytes > MAX_TTS_MESSAGE_BYTES) {
      throw new SocketError('message_too_large', `A message may be at most ${MAX_TTS_MESSAGE_BYTES} bytes.`);
    }
    if (!('text' in raw)) {
      throw new SocketError(
        INVALID_MESSAGE,
        'Could not parse input message: binary frames are not part of this protocol.',
      );
    }
    // The app's JSON depth rule (json-depth.ts): a deeper value is never built.
    if (jsonNestsDeeperThan(raw.text, JSON_MAX_DEPTH)) {
      throw new SocketError(
        INVALID_MESSAGE,
        `Could not parse input message: a message nests at most ${JSON_MAX_DEPTH} levels.`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(raw.text);
    } catch {
      throw new SocketError(INVALID_MESSAGE, 'Could not parse input message: it is not valid JSON.');
    }
    const parsed = TtsSocketClientMessage.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SocketError(
        INVALID_MESSAGE,
        `Could not parse input message: ${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}.`,
      );
    }
    const message = parsed.data;
    socket.touch();
    if (!session) session = await authenticate(message);
    if (first) {
      first = false;
      firstSettings = {
        voice_settings: message.voice_settings,
        schedule: message.generation_config?.chunk_length_schedule,
        pronunciation_dictionary_locators: message.pronunciation_dictionary_locators,
      };
    }
    const s = session;
    if (message.close_socket) {
      if (!multi) throw new SocketError(INVALID_MESSAGE, 'close_socket is a multi-stream-input message.');
      ending = true;
      await Promise.all([...contexts.values()].map((context) => context.finish()));
      socket.close(WS_CLOSE.normal, 'Closed by the client.');
      return;
    }
    if (message.close_context) {
      if (!multi || !message.context_id) {
        throw new SocketError(INVALID_MESSAGE, 'close_context needs a context_id, on multi-stream-input.');
      }
      const context = contexts.get(message.context_id);
      contexts.delete(message.context_id);
      if (context) {
        context.close();
        socket.send({ isFinal: true, contextId: message.context_id });
      }
      return;
    }
    const text = message.text;
    if (text === undefined && !message.flush) {
      throw new SocketError(INVALID_MESSAGE, 'Could not parse input message: it has no text.');
    }
    // `{"text": ""}` ends the input of a single-context socket (with `flush` it only flushes); on a
    // multi-context one it keeps a context alive.
    if (text === '' && !multi && !message.flush) {
      ending = true;
      const context = contexts.get('') ?? (await contextFor(s, message));
      await context.finish();
      socket.close(WS_CLOSE.normal, 'Input ended.');
      return;
    }
    const context = await contextFor(s, message);
    context.setVoiceSettings(message.voice_settings);
    context.setSchedule((message.generation_config ?? message.generator_config)?.chunk_length_schedule);
    context.add(text ?? '', message.flush === true);
  };

  socket.setIdleTimeout(query.inactivity_timeout * 1000, () => {
    // Speech still being made for the client is activity too: the timer counts from then.
    if ([...contexts.values()].some((context) => context.busy) || ending) {
      socket.touch();
      return;
    }
    fail(
      new SocketError(
        'input_timeout_exceeded',
        `Have not received a new text input within the timeout of ${query.inactivity_timeout} seconds. Streaming input terminated. Please make sure to either feed the input in the timely manner, or to send the end of input text (empty string "") when done.`,
      ),
    );
  });

  // Credentials in the opening request are checked at once (a refused socket learns it before sending).
  const opening = hasOpeningCredentials
    ? authenticate().then(
        (s) => {
          session = s;
        },
        (error: unknown) => fail(toSocketError(error)),
      )
    : Promise.resolve();
  socket.onMessage(async (raw) => {
    try {
      // Messages wait for the opening authentication (which fails the socket itself if refused).
      await opening;
      if (hasOpeningCredentials && !session) return;
      await handle(raw);
    } catch (error) {
      fail(toSocketError(error));
    }
  });
}

/** `/v1/text-to-speech/{voice_id}/stream-input` and `/multi-stream-input`. */
export async function ttsSocketRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  socketRoute(app, '/v1/text-to-speech/:voice_id/stream-input', (ws, request) =>
    openTtsSocket(deps, ws, request, false),
  );
  socketRoute(app, '/v1/text-to-speech/:voice_id/multi-stream-input', (ws, request) =>
    openTtsSocket(deps, ws, request, true),
  );
}
