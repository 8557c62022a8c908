import { pcmToUlaw, Resampler } from '@parla/audio';
import {
  CONVERSATION_LIMITS,
  type ConversationAudioFormat,
  type ConversationErrorType,
  ConversationInitiationClientData,
  type ConversationTranscriptTurn,
  conversationFormatRate,
  WS_CLOSE,
} from '@parla/contracts';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppDeps } from '../../app-deps';
import type { Principal } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import { JSON_MAX_DEPTH, jsonNestsDeeperThan } from '../../platform/json-depth';
import { describeDuration, RealtimeSocket, type SocketMessage } from '../../platform/realtime/socket';
import type { RealtimeVoiceActivity } from '../../providers/stt/stt-provider';
import { AudioChunkError, decodeAudioChunk } from '../speech-to-text';
import {
  finishConversation,
  type OpenedConversation,
  openConversationRecord,
} from './conversation-lifecycle';
import type { ConversationServices, SpokenSentence } from './conversation-services';
import { InitiationWebhookFailed, mergeInitiationData } from './initiation-webhook';
import { ConversationRecording, RECORDING_RATE } from './recording';
import type { ChatMessage, ChatToolCall, Responder, ToolAnswer } from './responder';
import { SentenceCutter } from './sentences';
import { applyClientData, OverrideRefused, type SessionAgent, type SessionTool } from './session-agent';
import { UtteranceTracker } from './utterances';
import { callWebhookTool } from './webhook-tool';

/*
 * The conversation socket (issue 28 item 2), `/v1/convai/conversation?agent_id=…`, speaking the protocol
 * `@elevenlabs/client` speaks (el-facts §3): the subprotocol `convai`; the client's
 * `conversation_initiation_client_data` answered first with `conversation_initiation_metadata`; user audio
 * as `{user_audio_chunk}` (no type); the agent's `audio` with alignment, `agent_response`,
 * `user_transcript`, `interruption`, `ping`/`pong`, `vad_score`, client tools, `contextual_update`,
 * `user_message`, `user_activity`, `agent_response_correction`; close 1000 for a normal end.
 *
 * The turn loop: the user's audio goes into voice-activity detection as it arrives; when speech stops
 * (TURN_END_SILENCE_SECS of silence, 0.4 s for a normal agent) the utterance is transcribed, the agent answers through its
 * responder (a language model streamed, or its knowledge base's best passage), each sentence is spoken as
 * soon as it is complete and sent as audio. Speech that starts while the agent is speaking (barge-in) stops
 * the agent at once: `interruption`, the answer's generation aborted, what was not sent never sent.
 */

/** Voice activity: a window is speech above this probability. */
const VAD_THRESHOLD = 0.5;
/** Speech shorter than this is not a turn (a cough, a click). */
const VAD_MIN_SPEECH_SECS = 0.15;
/**
 * The silence that ends the user's turn, by the agent's `turn_eagerness`: an eager agent answers after a
 * shorter pause (and cuts slow speakers' pauses more often), a patient one waits longer.
 */
const TURN_END_SILENCE_SECS = { eager: 0.3, normal: 0.4, patient: 0.8 } as const;
/** How often the user's silence is looked at (turn_timeout's check-in, silence_end_call_timeout). */
const SILENCE_CHECK_MS = 250;
/**
 * The silence after which the utterance is transcribed ahead of the turn's end: the detector reports a
 * segment's end after this much, the session starts the recogniser on it, and keeps that transcript if
 * the silence reaches TURN_END_SILENCE_SECS (speech that resumes first throws it away and the utterance
 * goes on). The recogniser's ~300 ms then overlap the last 200 ms of the wait (bench/README.md
 * "Conversations").
 */
const VAD_EARLY_SILENCE_SECS = 0.2;
/**
 * Speech heard this long while the agent speaks is a barge-in: as soon as the detector reports speech
 * (it does after VAD_MIN_SPEECH_SECS). At 0.2 s the barge-in waited for the client's next chunk after the
 * detection (~100 ms with 100 ms chunks): 382 ms from the speech's onset to `interruption`, against the
 * issue's 300; at once: 281–286 ms (bench/conversation.bench.ts).
 */
const BARGE_IN_SECS = VAD_MIN_SPEECH_SECS;
/** Audio kept around an utterance when it is cut for the recogniser. */
const UTTERANCE_PAD = Math.round(0.15 * RECORDING_RATE);
/** How often the conversation's row says it is alive (and its duration so far). */
const HEARTBEAT_MS = 15_000;
/** Pings a client may leave unanswered before it counts as gone. */
const MISSED_PINGS = 4;
/** How far a client's audio may run ahead of the conversation's clock (a network burst, not a file). */
const AUDIO_AHEAD_SECS = 10;
/** Turns that may wait for the agent (typed messages, utterances) before a client counts as flooding. */
const MAX_WAITING_TURNS = 4;
const MAX_CONTEXT_UPDATES = 100;
/** What an agent with no language model says when the user is silent past its turn_timeout. */
const CHECK_IN_WITHOUT_MODEL = 'Are you still there?';
/** The agent's speech is sent in pieces of about this long (the client plays as they come). */
const AUDIO_PIECE_SECS = 0.5;

/** Why a conversation opened with an API key or a session ends when that access goes (close 1008). */
const ACCESS_REVOKED = 'This API key or session no longer has access; the conversation was ended.';

/** A protocol error: its type, what the client reads, and the close code. */
class ConversationError extends Error {
  constructor(
    readonly type: ConversationErrorType,
    message: string,
    readonly code: number = WS_CLOSE.policyViolation,
  ) {
    super(message);
  }
}

function toConversationError(error: unknown): ConversationError {
  if (error instanceof ConversationError) return error;
  if (error instanceof AudioChunkError) return new ConversationError('invalid_audio', error.message);
  if (error instanceof OverrideRefused) return new ConversationError('invalid_message', error.message);
  if (error instanceof InitiationWebhookFailed)
    return new ConversationError('internal_error', error.message, WS_CLOSE.internalError);
  if (error instanceof AppError) {
    switch (error.code) {
      case 'invalid_api_key':
      case 'unauthorized':
      case 'workspace_access_revoked':
        return new ConversationError('unauthorized', error.message);
      case 'quota_exceeded':
      case 'payment_required':
        return new ConversationError('quota_exceeded', error.message);
      case 'too_many_concurrent_requests':
        return new ConversationError(
          'too_many_concurrent_conversations',
          error.message,
          WS_CLOSE.tryAgainLater,
        );
      case 'not_found':
      case 'resource_not_found':
        return new ConversationError('agent_not_found', error.message);
      case 'invalid_request':
        return new ConversationError('invalid_message', error.message);
      default:
        return new ConversationError('internal_error', error.message, WS_CLOSE.internalError);
    }
  }
  return new ConversationError(
    'internal_error',
    'The conversation failed on the server; it was ended.',
    WS_CLOSE.internalError,
  );
}

/** `/v1/convai/conversation`'s handler: one conversation per socket. */
export function openConversationSocket(
  deps: AppDeps,
  services: ConversationServices,
  ws: WebSocket,
  request: FastifyRequest,
): void {
  const session = new ConversationSession(deps, services, ws, request);
  session.start().catch((error: unknown) => session.failWith(error));
}

/** One answer of the agent in progress. */
interface AgentTurn {
  eventId: number;
  controller: AbortController;
  /** What has been sent as audio (or text) so far. */
  said: string;
  /** The whole answer as the responder gave it. */
  full: string;
  /** The whole answer went to the client as agent_response. */
  responded: boolean;
  turn: ConversationTranscriptTurn;
  /** Each sentence sent, with when the client starts playing it (ms, performance clock). */
  sent: { text: string; startsAt: number }[];
  /** The history's length when the answer began: its assistant messages follow. */
  historyFrom: number;
  /** What the client had played when the user barged in (set then): all that is kept of the answer. */
  heard?: string;
}

export class ConversationSession {
  private readonly socket: RealtimeSocket;
  private eventId = 0;
  private agent!: SessionAgent;
  private responder!: Responder;
  private conversation: OpenedConversation | undefined;
  private readonly startedMs = performance.now();
  private inputFormat: ConversationAudioFormat = 'pcm_16000';
  private outputFormat: ConversationAudioFormat = 'pcm_16000';
  private toRecording: Resampler | undefined;
  private vad: RealtimeVoiceActivity | undefined;
  private readonly recording = new ConversationRecording();
  /** Where the user's utterances begin and end (samples of the recording); capped at MAX_UTTERANCE_SECS. */
  private readonly utterances = new UtteranceTracker(RECORDING_RATE, VAD_MIN_SPEECH_SECS);
  /**
   * An utterance whose speech stopped less than TURN_END_SILENCE_SECS ago: where it began and ended
   * (samples of the recording), and its transcript, started early. It becomes a turn once the silence
   * lasts; speech that resumes first makes it part of a longer utterance (from `resumedFrom`).
   */
  private pause: { start: number; end: number; heard: Promise<string> } | undefined;
  private resumedFrom: number | undefined;
  private lastVadScore = 0;
  /** Seconds of user audio received (at its own rate). */
  private heardSecs = 0;
  private lastPongAt = performance.now();
  private contextUpdates = 0;
  /** Turns queued behind the one being answered. */
  private waitingTurns = 0;
  private readonly transcript: ConversationTranscriptTurn[] = [];
  private readonly history: ChatMessage[] = [];
  private current: AgentTurn | undefined;
  /** The last answer (kept after it was all sent, while the client may still be playing it). */
  private lastAnswer: AgentTurn | undefined;
  /** The agent's turns, one after the other (a user turn that arrives while one runs waits). */
  private turns: Promise<void> = Promise.resolve();
  /** When the client will have played what was sent (ms, performance clock). */
  private playingUntil = 0;
  private readonly clientTools = new Map<string, (answer: ToolAnswer) => void>();
  private pingSentAt = new Map<number, number>();
  private pingMs: number | undefined;
  private ending = false;
  private timers: NodeJS.Timeout[] = [];
  /** When the user last spoke, typed or said they were active; and when the agent's last turn ended. */
  private userActiveAt = performance.now();
  private agentDoneAt = performance.now();
  /** The agent checked in (turn_timeout) since the user last did anything: once per silence. */
  private checkedIn = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly services: ConversationServices,
    ws: WebSocket,
    private readonly request: FastifyRequest,
  ) {
    this.socket = new RealtimeSocket(ws, {
      logger: deps.logger,
      maxDurationMs: deps.config.realtime.maxSocketMs,
      onExpired: () => this.expire(),
    });
    this.socket.onClose(() => void this.closed());
  }

  private get elapsedSecs(): number {
    return (performance.now() - this.startedMs) / 1000;
  }

  private nextEventId(): number {
    this.eventId += 1;
    return this.eventId;
  }

  async start(): Promise<void> {
    const query = this.request.query as Record<string, unknown>;
    const agentId = typeof query.agent_id === 'string' ? query.agent_id : '';
    if (!agentId || agentId.length > 64)
      throw new ConversationError(
        'agent_not_found',
        'agent_id is required: /v1/convai/conversation?agent_id=…',
      );
    const headers = this.request.headers;
    // `bearer.<token>` beside `convai` (el-facts §3: the client's `authorization`): a signed URL's
    // signature or an API key / access token, as the query and the headers carry them.
    const bearer = bearerSubprotocol(headers['sec-websocket-protocol']);
    const signature =
      typeof query.conversation_signature === 'string' ? query.conversation_signature : undefined;
    const opened = await this.services.authorize({
      agentId,
      signature: signature ?? (bearer?.startsWith('cvsig_') ? bearer : undefined),
      apiKey: typeof headers['xi-api-key'] === 'string' ? headers['xi-api-key'] : undefined,
      authorization:
        headers.authorization ?? (bearer && !bearer.startsWith('cvsig_') ? `Bearer ${bearer}` : undefined),
      origin: typeof headers.origin === 'string' ? headers.origin : undefined,
    });
    // One handler for the socket's life: the first message is the initiation data; what follows waits,
    // in order, until the conversation is ready.
    let ready: () => void = () => undefined;
    const isReady = new Promise<void>((resolve) => {
      ready = resolve;
    });
    this.socket.onClose(() => ready());
    const first = this.firstMessage();
    this.socket.onMessage(async (message) => {
      try {
        if (this.initiation === undefined) {
          this.initiation = this.parse(message);
          this.gotFirst();
          return;
        }
        await isReady;
        if (this.socket.isOpen) await this.receive(message);
      } catch (error) {
        this.failWith(error);
      }
    });
    let clientData = await first;
    if (!this.socket.isOpen) return;
    this.principal = opened.principal;
    // The workspace's initiation webhook, for an agent that asks for it: its data on top of the client's.
    const gone = new AbortController();
    this.socket.onClose(() => gone.abort());
    const fromWebhook = await this.services.initiationData?.(opened.agent, clientData, gone.signal);
    if (!this.socket.isOpen) return;
    if (fromWebhook) clientData = mergeInitiationData(clientData, fromWebhook);
    this.agent = applyClientData(opened.agent, clientData);
    this.inputFormat = this.agent.inputFormat;
    this.outputFormat = this.agent.outputFormat;
    this.responder = await this.services.responderFor(this.agent);
    // Gone meanwhile: no row, no minute.
    if (this.isClosed || !this.socket.isOpen) return;
    this.conversation = await openConversationRecord(this.deps, this.services, {
      agent: this.agent,
      authorization: opened.authorization,
      userId: opened.userId,
      clientUserId: clientData?.user_id ?? null,
      responseMode: this.responder.mode,
      responseModeReason: this.responder.reason,
      initiationData: clientData ? (clientData as unknown as Record<string, unknown>) : null,
      signature: opened.signature,
      stillAuthorized: () => this.stillAuthorized(),
      onRevoked: () => this.failWith(new ConversationError('unauthorized', ACCESS_REVOKED)),
      onQuotaEnd: () =>
        this.failWith(
          new ConversationError(
            'quota_exceeded',
            "The workspace's conversation minutes for this period are used up; the conversation was ended.",
          ),
        ),
    });
    if (this.isClosed || !this.socket.isOpen) {
      await this.finish();
      return;
    }
    this.socket.send({
      type: 'conversation_initiation_metadata',
      conversation_initiation_metadata_event: {
        conversation_id: this.conversation.id,
        agent_output_audio_format: this.outputFormat,
        user_input_audio_format: this.inputFormat,
      },
    });
    if (!this.agent.textOnly) await this.openVoiceActivity();
    // Gone while the voice-activity session opened: let it go (closed() ran before it existed).
    if (this.isClosed) {
      this.vad?.close();
      this.vad = undefined;
      return;
    }
    this.startTimers();
    if (this.agent.firstMessage.trim()) this.enqueueTurn({ speak: this.agent.firstMessage });
    // An older client that started with audio: that message is handled now, as any other.
    const early = this.initiation;
    if (early && early.type !== 'conversation_initiation_client_data') await this.handle(early);
    ready();
  }

  /** The API key's or session's caller (none for a public agent or a signed URL). */
  private principal: Principal | undefined;

  private async stillAuthorized(): Promise<boolean> {
    return !this.principal || this.deps.auth.stillAuthorized(this.principal);
  }

  /** The client's first message, parsed (set by the socket's handler). */
  private initiation: Record<string, unknown> | undefined;
  private gotFirst: () => void = () => undefined;

  /** The client's initiation data (or none, from a client that starts with audio), within 10 s. */
  private firstMessage(): Promise<ConversationInitiationClientData | undefined> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new ConversationError(
              'invalid_message',
              'Send conversation_initiation_client_data first, within 10 s of connecting.',
            ),
          ),
        10_000,
      );
      timer.unref();
      this.socket.onClose(() => {
        clearTimeout(timer);
        resolve(undefined);
      });
      this.gotFirst = () => {
        clearTimeout(timer);
        const body = this.initiation ?? {};
        if (body.type !== 'conversation_initiation_client_data') {
          resolve(undefined);
          return;
        }
        const parsed = ConversationInitiationClientData.safeParse(body);
        if (parsed.success) {
          resolve(parsed.data);
          return;
        }
        const issue = parsed.error.issues[0];
        reject(
          new ConversationError(
            'invalid_message',
            `conversation_initiation_client_data.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}.`,
          ),
        );
      };
    });
  }

  private async openVoiceActivity(): Promise<void> {
    const realtime = this.deps.providers.stt.realtime;
    if (!realtime)
      throw new ConversationError(
        'internal_error',
        'This server cannot hear live audio (no voice-activity model); use a text-only conversation.',
        WS_CLOSE.internalError,
      );
    this.vad = await realtime.openVoiceActivity({
      threshold: VAD_THRESHOLD,
      minSpeechSecs: VAD_MIN_SPEECH_SECS,
      minSilenceSecs: VAD_EARLY_SILENCE_SECS,
    });
    const rate = conversationFormatRate(this.inputFormat);
    if (rate !== RECORDING_RATE) this.toRecording = new Resampler(rate, RECORDING_RATE);
  }

  private startTimers(): void {
    const ping = setInterval(() => {
      // A client that answers no ping for this long is gone (a half-open connection): its minutes stop.
      if (performance.now() - this.lastPongAt > MISSED_PINGS * CONVERSATION_LIMITS.pingEveryMs) {
        this.failWith(
          new ConversationError(
            'invalid_message',
            'The client stopped answering pings; the conversation was ended.',
          ),
        );
        return;
      }
      const id = this.nextEventId();
      this.pingSentAt.set(id, performance.now());
      if (this.pingSentAt.size > 10) this.pingSentAt.delete(this.pingSentAt.keys().next().value as number);
      this.socket.send({
        type: 'ping',
        ping_event: { event_id: id, ...(this.pingMs !== undefined ? { ping_ms: this.pingMs } : {}) },
      });
    }, CONVERSATION_LIMITS.pingEveryMs);
    const beat = setInterval(() => {
      if (this.conversation)
        void this.conversation.heartbeat(Math.round(this.elapsedSecs)).catch(() => undefined);
    }, HEARTBEAT_MS);
    const max = setTimeout(() => this.expire(), this.agent.maxDurationSecs * 1000);
    const silence = setInterval(() => this.watchSilence(), SILENCE_CHECK_MS);
    for (const timer of [ping, beat, max, silence]) timer.unref();
    this.timers.push(ping, beat, max, silence);
  }

  /** The user did something: their silence starts again. */
  private userActive(): void {
    this.userActiveAt = performance.now();
    this.checkedIn = false;
  }

  /**
   * The user's silence while the agent waits for them: after `turn_timeout` seconds the agent checks in
   * once, after `silence_end_call_timeout` seconds it ends the call (-1 turns either off). The silence
   * counts from the later of the user's last activity and the end of the agent's audio.
   */
  private watchSilence(): void {
    if (this.current || this.pause || this.waitingTurns > 0 || this.lastVadScore === 1 || this.ending) return;
    const since = Math.max(this.userActiveAt, this.agentDoneAt, this.playingUntil);
    const quietSecs = (performance.now() - since) / 1000;
    const { turnTimeoutSecs, silenceEndCallSecs } = this.agent;
    if (silenceEndCallSecs > 0 && quietSecs >= silenceEndCallSecs) {
      this.end(`The user was silent for ${silenceEndCallSecs} seconds (silence_end_call_timeout).`);
      return;
    }
    if (turnTimeoutSecs > 0 && !this.checkedIn && quietSecs >= turnTimeoutSecs) {
      this.checkedIn = true;
      this.enqueueTurn({ checkIn: turnTimeoutSecs });
    }
  }

  // ---- Messages in --------------------------------------------------------------------------------

  private parse(message: SocketMessage): Record<string, unknown> {
    if (message.bytes > CONVERSATION_LIMITS.maxMessageBytes)
      throw new ConversationError(
        'message_too_large',
        `A message may be at most ${CONVERSATION_LIMITS.maxMessageBytes / 1024 / 1024} MB; send audio in chunks of about 100 ms.`,
        WS_CLOSE.tooBig,
      );
    if (!('text' in message))
      throw new ConversationError(
        'invalid_message',
        'Send JSON text messages; binary frames are not part of this protocol.',
      );
    if (jsonNestsDeeperThan(message.text, JSON_MAX_DEPTH))
      throw new ConversationError('invalid_message', `A message nests at most ${JSON_MAX_DEPTH} levels.`);
    let body: unknown;
    try {
      body = JSON.parse(message.text);
    } catch {
      throw new ConversationError('invalid_message', 'The message is not JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new ConversationError('invalid_message', 'The message must be a JSON object.');
    return body as Record<string, unknown>;
  }

  private async receive(message: SocketMessage): Promise<void> {
    await this.handle(this.parse(message));
  }

  private async handle(body: Record<string, unknown>): Promise<void> {
    if ('user_audio_chunk' in body) {
      if (typeof body.user_audio_chunk !== 'string')
        throw new ConversationError('invalid_audio', 'user_audio_chunk must be base64 audio.');
      this.socket.touch();
      await this.hear(
        decodeAudioChunk(body.user_audio_chunk, this.inputFormat === 'ulaw_8000' ? 'ulaw' : 'pcm'),
      );
      return;
    }
    const text = (field: string) => {
      const value = body[field];
      if (typeof value !== 'string')
        throw new ConversationError('invalid_message', `${String(body.type)}.${field} must be a string.`);
      if (value.length > CONVERSATION_LIMITS.maxTextCharacters)
        throw new ConversationError(
          'invalid_message',
          `${String(body.type)}.${field} may be at most ${CONVERSATION_LIMITS.maxTextCharacters.toLocaleString('en-US')} characters.`,
        );
      return value;
    };
    switch (body.type) {
      case 'pong': {
        const sent = typeof body.event_id === 'number' ? this.pingSentAt.get(body.event_id) : undefined;
        if (sent !== undefined) this.pingMs = Math.round(performance.now() - sent);
        this.lastPongAt = performance.now();
        return;
      }
      case 'user_message': {
        const message = text('text').trim();
        if (!message) return;
        this.userActive();
        this.bargeIn();
        this.enqueueTurn({ text: message });
        return;
      }
      case 'user_activity':
        this.socket.touch();
        this.userActive();
        return;
      case 'contextual_update': {
        const update = text('text');
        this.contextUpdates += 1;
        if (this.contextUpdates > MAX_CONTEXT_UPDATES)
          throw new ConversationError(
            'invalid_message',
            `A conversation takes at most ${MAX_CONTEXT_UPDATES} contextual updates.`,
          );
        this.history.push({ role: 'system', content: `Context update (not said by the user): ${update}` });
        return;
      }
      case 'client_tool_result': {
        const id = typeof body.tool_call_id === 'string' ? body.tool_call_id : '';
        const waiting = this.clientTools.get(id);
        if (!waiting) return; // late, or not ours: nothing waits for it
        const result = body.result;
        waiting({
          text: typeof result === 'string' ? result : JSON.stringify(result ?? null),
          isError: body.is_error === true,
        });
        return;
      }
      case 'feedback': {
        if (body.score === 'like' || body.score === 'dislike' || body.score === null)
          await this.conversation?.feedback(body.score);
        return;
      }
      case 'conversation_initiation_client_data':
        throw new ConversationError(
          'invalid_message',
          'conversation_initiation_client_data is sent once, first.',
        );
      case 'mcp_tool_approval_result':
      case 'multimodal_message':
        throw new ConversationError('invalid_message', `${body.type} is not supported by this server.`);
      default:
        throw new ConversationError(
          'invalid_message',
          `Unknown message type ${JSON.stringify(body.type ?? null).slice(0, 64)}.`,
        );
    }
  }

  // ---- Hearing --------------------------------------------------------------------------------------

  /** The user's audio: into the recording and the voice-activity detector, in order. */
  private async hear(samples: Int16Array): Promise<void> {
    if (!this.vad)
      // A voice client on a text-only agent (conversation.text_only): nothing here hears audio, so the
      // client is told at its first chunk, not left talking to no one.
      throw new ConversationError(
        'invalid_message',
        'This agent is text only (conversation.text_only): it does not hear audio. Send user_message, or open the conversation as text only (textOnly).',
      );
    // A microphone sends in real time: audio far ahead of the clock is not one (and would pile up).
    this.heardSecs += samples.length / conversationFormatRate(this.inputFormat);
    if (this.heardSecs > this.elapsedSecs + AUDIO_AHEAD_SECS)
      throw new ConversationError(
        'invalid_audio',
        'Audio is arriving faster than real time; send the microphone as it records.',
      );
    const at16k = this.toRecording ? this.toRecording.push(samples) : samples;
    this.recording.appendUser(at16k);
    const update = await this.vad.accept(at16k).catch(() => {
      throw new ConversationError(
        'internal_error',
        'Voice activity detection failed.',
        WS_CLOSE.internalError,
      );
    });
    this.onVoiceActivity(update.speaking, update.segments, update.fed);
  }

  private onVoiceActivity(speaking: boolean, segments: { start: number; end: number }[], fed: number): void {
    const score = speaking ? 1 : 0;
    if (score !== this.lastVadScore) {
      this.lastVadScore = score;
      this.socket.send({ type: 'vad_score', vad_score_event: { vad_score: score } });
    }
    if (speaking) this.userActive();
    const utterance = this.utterances.update(speaking, segments, fed);
    if (speaking && this.utterances.spokenSamples(fed) >= BARGE_IN_SECS * RECORDING_RATE) this.bargeIn();
    if (speaking && this.pause) {
      // Speech resumed within the turn's silence: one utterance goes on; its early transcript is dropped.
      this.resumedFrom = this.pause.start;
      this.pause = undefined;
    }
    if (utterance) {
      const start = Math.min(utterance.start, this.resumedFrom ?? utterance.start);
      this.resumedFrom = undefined;
      // A capped utterance is cut where the speech goes on: no padding after it (the next one starts there).
      const audio = this.recording.slice(
        start - UTTERANCE_PAD,
        utterance.end + (utterance.capped ? 0 : UTTERANCE_PAD),
      );
      const heard = this.services.transcribe(audio, this.agent).then((text) => text.trim());
      // Dropped when speech resumes: its failure then is nobody's (a kept one fails its turn).
      heard.catch(() => undefined);
      // Capped, the speech goes on: what was heard is a turn now. Else it waits for the turn's silence.
      if (utterance.capped) this.enqueueTurn({ heard });
      else this.pause = { start, end: utterance.end, heard };
    }
    if (
      this.pause &&
      !speaking &&
      fed - this.pause.end >= TURN_END_SILENCE_SECS[this.agent.turnEagerness] * RECORDING_RATE
    ) {
      const { heard } = this.pause;
      this.pause = undefined;
      this.enqueueTurn({ heard });
    }
  }

  /** The user speaks while the agent does: it stops at once, and what it did not say is not kept. */
  private bargeIn(): void {
    const now = performance.now();
    const stillPlaying = now < this.playingUntil;
    // The answer being made, or the last one while the client still plays it (all sent, not all heard).
    const turn = this.current ?? (stillPlaying ? this.lastAnswer : undefined);
    if (!turn && !stillPlaying) return;
    this.playingUntil = 0;
    const id = this.nextEventId();
    this.socket.send({ type: 'interruption', interruption_event: { event_id: id } });
    if (turn && turn.heard === undefined) {
      turn.controller.abort();
      turn.turn.interrupted = true;
      // What the client played: the sentences whose playback had begun (a text-only one: all sent).
      turn.heard = turn.sent
        .filter((s) => s.startsAt <= now)
        .map((s) => s.text)
        .join(' ');
      if (turn.heard !== turn.full.trim()) {
        this.socket.send({
          type: 'agent_response_correction',
          agent_response_correction_event: {
            original_agent_response: turn.full,
            corrected_agent_response: turn.heard,
            event_id: turn.eventId,
          },
        });
      }
      turn.turn.message = turn.heard;
      this.keepHeardInHistory(turn);
    }
  }

  /** The answer's assistant messages in the model's history cut to what the client heard. */
  private keepHeardInHistory(turn: AgentTurn): void {
    // Sentences are trimmed slices of the answer's text, in order: count what was heard without spaces.
    let keep = (turn.heard ?? '').replace(/\s+/g, '').length;
    for (let i = turn.historyFrom; i < this.history.length; i += 1) {
      const message = this.history[i];
      if (message?.role !== 'assistant' || !message.content) continue;
      let end = 0;
      for (let seen = 0; end < message.content.length && seen < keep; end += 1)
        if (!/\s/.test(message.content[end] as string)) seen += 1;
      keep -= message.content.slice(0, end).replace(/\s+/g, '').length;
      message.content = message.content.slice(0, end);
      // Nothing of it heard and no tool calls to answer: the model is not told it said anything.
      if (!message.content && !message.toolCalls?.length) {
        this.history.splice(i, 1);
        i -= 1;
      }
    }
  }

  // ---- Turns ------------------------------------------------------------------------------------------

  /** A turn, after those before it: the first message, a typed message, or an utterance to transcribe. */
  private enqueueTurn(input: {
    heard?: Promise<string>;
    text?: string;
    speak?: string;
    /** The user has been silent this many seconds: the agent checks in (turn_timeout). */
    checkIn?: number;
  }): void {
    if (this.waitingTurns >= MAX_WAITING_TURNS)
      throw new ConversationError(
        'invalid_message',
        `${MAX_WAITING_TURNS} turns are already waiting for the agent; wait for its answers.`,
      );
    this.waitingTurns += 1;
    this.turns = this.turns
      .finally(() => {
        this.waitingTurns -= 1;
      })
      .then(async () => {
        if (!this.socket.isOpen || this.ending) return;
        if (input.speak !== undefined) {
          await this.answer({ fixed: input.speak });
          return;
        }
        // A key revoked (or a seat lost) mid-conversation ends it before the next answer, as the other
        // sockets do before their next charged piece of work (checked while the utterance is transcribed).
        const authorized = this.stillAuthorized();
        authorized.catch(() => undefined);
        if (input.checkIn !== undefined) {
          if (!(await authorized)) throw new ConversationError('unauthorized', ACCESS_REVOKED);
          // No model, no way to say it in the agent's own words: a plain question (knowledge-base mode
          // answers passages, not silence).
          if (this.responder.mode === 'knowledge_base') {
            await this.answer({ fixed: CHECK_IN_WITHOUT_MODEL });
            return;
          }
          this.history.push({
            role: 'system',
            content: `The user has said nothing for ${input.checkIn} seconds. Check whether they are still there, in one short sentence in the language of the conversation.`,
          });
          await this.answer({});
          return;
        }
        const said = input.heard ? await input.heard : input.text;
        if (!(await authorized)) throw new ConversationError('unauthorized', ACCESS_REVOKED);
        if (!said || !this.socket.isOpen) return;
        this.userSaid(said, input.heard ? 'audio' : 'text');
        await this.answer({});
      })
      .catch((error: unknown) => this.failWith(error));
  }

  /** A user's turn: in the transcript, in the history, and (spoken) to the client. */
  private userSaid(text: string, medium: 'audio' | 'text'): void {
    const eventId = this.nextEventId();
    if (medium === 'audio')
      this.socket.send({
        type: 'user_transcript',
        user_transcription_event: { user_transcript: text, event_id: eventId },
      });
    this.transcript.push({
      role: 'user',
      message: text,
      time_in_call_secs: Math.round(this.elapsedSecs),
      tool_calls: [],
      tool_results: [],
      feedback: null,
      source_medium: medium,
    });
    this.history.push({ role: 'user', content: text });
  }

  /**
   * The agent's answer: the fixed text (the first message), or the responder's turn over the history,
   * each sentence spoken and sent as soon as it is complete.
   */
  private async answer(input: { fixed?: string }): Promise<void> {
    const eventId = this.nextEventId();
    const controller = new AbortController();
    const record: ConversationTranscriptTurn = {
      role: 'agent',
      message: '',
      time_in_call_secs: Math.round(this.elapsedSecs),
      tool_calls: [],
      tool_results: [],
      feedback: null,
      source_medium: this.agent.textOnly ? 'text' : 'audio',
    };
    this.transcript.push(record);
    const turn: AgentTurn = {
      eventId,
      controller,
      said: '',
      full: '',
      responded: false,
      turn: record,
      sent: [],
      historyFrom: this.history.length,
    };
    this.current = turn;
    this.lastAnswer = turn;
    const cutter = new SentenceCutter();
    // Speech runs one sentence ahead of the sending: the next is synthesised while this one goes out, and
    // only then the one after (the first sentence has the engines to itself: bench/README.md
    // "Conversations"; sentences all rendering at once slowed the first audio and piled up listeners).
    let speaking: Promise<void> = Promise.resolve();
    let synthesis: Promise<unknown> = Promise.resolve();
    const say = (sentence: string) => {
      // Markup the model or a document may hold (<break>, <phoneme>…) is not the agent's to speak.
      const plain = sentence
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      const spoken =
        this.agent.textOnly || !plain
          ? Promise.resolve(undefined)
          : synthesis
              .then(() =>
                controller.signal.aborted
                  ? undefined
                  : this.services.speak(plain, this.agent, controller.signal),
              )
              .catch((error: unknown) => {
                // One sentence that cannot be spoken is sent as text only; the conversation goes on.
                if (!controller.signal.aborted)
                  this.deps.logger.warn({ err: error }, 'a sentence of an agent could not be spoken');
                return undefined;
              });
      synthesis = spoken;
      speaking = speaking.then(async () => {
        const audio = await spoken;
        if (controller.signal.aborted || !this.socket.isOpen) return;
        // sendAudio moves playingUntil on before its first await: the sentence starts playing here.
        turn.sent.push({ text: sentence, startsAt: Math.max(this.playingUntil, performance.now()) });
        if (audio) await this.sendAudio(audio, eventId, controller.signal);
        if (controller.signal.aborted) return;
        turn.said = turn.said ? `${turn.said} ${sentence}` : sentence;
      });
    };
    let ended = false;
    let endCallId = '';
    try {
      if (input.fixed !== undefined) {
        turn.full = input.fixed;
        this.history.push({ role: 'assistant', content: input.fixed });
        for (const piece of cutter.push(input.fixed)) say(piece);
      } else {
        for await (const event of this.responder.turn(
          this.history,
          (call, tool) => this.runTool(call, tool, record, controller.signal),
          controller.signal,
        )) {
          if (controller.signal.aborted) break;
          if (event.type === 'text') {
            turn.full += event.text;
            for (const piece of cutter.push(event.text)) say(piece);
          } else if (event.type === 'retrieved') {
            record.rag_retrieval_info = {
              embedding_model: event.passages[0]?.retrieval ?? 'full_text',
              rag_latency_secs: Math.round(event.latencyMs) / 1000,
              retrieval_query: event.query,
              chunks: event.passages.map((p) => ({
                document_id: p.documentId,
                chunk_id: p.chunkId,
                vector_distance: 1 - p.score,
              })),
            };
          } else if (event.type === 'tool_call' && event.call.name === 'end_call' && event.tool) {
            ended = true;
            endCallId = event.call.id;
          }
        }
        // Knowledge-base mode's answer is not in the history yet (the model's is, by the responder).
        if (this.responder.mode === 'knowledge_base')
          this.history.push({ role: 'assistant', content: turn.full });
      }
      if (!controller.signal.aborted) for (const piece of cutter.flush()) say(piece);
      if (!controller.signal.aborted && turn.full.trim()) {
        this.socket.send({
          type: 'agent_response',
          agent_response_event: { agent_response: turn.full.trim(), event_id: eventId },
        });
        turn.responded = true;
      }
      await speaking;
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      // An aborted answer's speech chain may still reject: handled here, never left unhandled.
      speaking.catch(() => undefined);
      if (this.current === turn) this.current = undefined;
      this.agentDoneAt = performance.now();
      // A barge-in keeps what the client played (it was told with a correction), in the transcript and
      // the model's history (the responder may have added the whole text meanwhile); a hang-up after the
      // answer went out keeps the answer.
      record.message = turn.heard ?? (turn.responded ? turn.full.trim() : turn.said);
      if (turn.heard !== undefined) this.keepHeardInHistory(turn);
    }
    if (ended && this.socket.isOpen) {
      // Let the goodbye play, then a normal close: the client reads 1000 as the agent ending the call.
      const wait = Math.max(0, this.playingUntil - performance.now());
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 10_000)).unref());
      this.socket.send({
        type: 'agent_tool_response',
        agent_tool_response: {
          tool_name: 'end_call',
          tool_call_id: endCallId,
          tool_type: 'system',
          is_error: false,
          is_called: true,
          event_id: this.eventId,
        },
      });
      this.end('end_call tool was called.');
    }
  }

  /** Sends one spoken sentence as audio events in the output format, in pieces, with its alignment. */
  private async sendAudio(audio: SpokenSentence, eventId: number, signal: AbortSignal): Promise<void> {
    const outRate = conversationFormatRate(this.outputFormat);
    const samples =
      audio.sampleRate === outRate ? audio.samples : resampleAll(audio.samples, audio.sampleRate, outRate);
    this.recording.placeAgent(
      audio.sampleRate === RECORDING_RATE
        ? audio.samples
        : resampleAll(audio.samples, audio.sampleRate, RECORDING_RATE),
    );
    const piece = Math.round(AUDIO_PIECE_SECS * outRate);
    const now = performance.now();
    this.playingUntil = Math.max(this.playingUntil, now) + (samples.length / outRate) * 1000;
    for (let at = 0; at < samples.length; at += piece) {
      if (signal.aborted || !(await this.socket.writable())) return;
      const part = samples.subarray(at, Math.min(samples.length, at + piece));
      const bytes = this.outputFormat === 'ulaw_8000' ? Buffer.from(pcmToUlaw(part)) : pcmBytes(part);
      this.socket.send({
        type: 'audio',
        audio_event: {
          audio_base_64: bytes.toString('base64'),
          event_id: eventId,
          ...(at === 0 ? { alignment: audio.alignment } : {}),
        },
      });
    }
  }

  // ---- Tools ------------------------------------------------------------------------------------------

  private async runTool(
    call: ChatToolCall,
    tool: SessionTool | undefined,
    record: ConversationTranscriptTurn,
    signal: AbortSignal,
  ): Promise<ToolAnswer> {
    const params = typeof call.arguments === 'string' ? {} : call.arguments;
    record.tool_calls.push({
      type: tool?.type,
      request_id: call.id,
      tool_name: call.name,
      params_as_json: JSON.stringify(call.arguments),
      tool_has_been_called: tool !== undefined,
    });
    const answer = await this.toolAnswer(call, tool, params, signal);
    record.tool_results.push({
      request_id: call.id,
      tool_name: call.name,
      result_value: answer.text,
      is_error: answer.isError,
      tool_has_been_called: tool !== undefined,
      type: tool?.type,
    });
    // end_call's response goes out just before the close (the client hangs up on it): after the goodbye.
    if (tool && tool.type !== 'client' && tool.name !== 'end_call')
      this.socket.send({
        type: 'agent_tool_response',
        agent_tool_response: {
          tool_name: call.name,
          tool_call_id: call.id,
          tool_type: tool.type,
          is_error: answer.isError,
          is_called: true,
          event_id: this.eventId,
        },
      });
    return answer;
  }

  private async toolAnswer(
    call: ChatToolCall,
    tool: SessionTool | undefined,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolAnswer> {
    if (!tool)
      return {
        text: `There is no tool named "${call.name.slice(0, 64)}" for this agent; it was not called.`,
        isError: true,
      };
    if (typeof call.arguments === 'string')
      return {
        text: 'The arguments were not a JSON object; call the tool again with JSON arguments.',
        isError: true,
      };
    if (tool.type === 'webhook') {
      const outcome = await callWebhookTool(tool, params, {
        allowPrivate: this.services.allowPrivateToolUrls,
        signal,
        variables: this.agent.dynamicVariables,
      });
      return { text: outcome.text, isError: !outcome.ok };
    }
    if (tool.type === 'mcp' && tool.mcp) return tool.mcp.call(params, signal);
    if (tool.type === 'client') {
      this.socket.send({
        type: 'client_tool_call',
        client_tool_call: {
          tool_name: tool.name,
          tool_call_id: call.id,
          parameters: params,
          event_id: this.eventId,
        },
      });
      if (tool.expectsResponse === false) return { text: 'Sent to the client.', isError: false };
      return this.awaitClientTool(call.id, tool.timeoutMs ?? CONVERSATION_LIMITS.clientToolTimeoutMs, signal);
    }
    switch (tool.name) {
      case 'end_call':
        return { text: 'The call will end after your goodbye.', isError: false, endsTurn: true };
      case 'skip_turn':
        return { text: 'Waiting for the user.', isError: false, endsTurn: true };
      case 'language_detection': {
        const language = typeof params.language === 'string' ? params.language.slice(0, 8) : '';
        if (language) this.agent = { ...this.agent, language };
        return {
          text: language ? `The conversation is now in "${language}".` : 'No language given.',
          isError: !language,
        };
      }
      default:
        return { text: `${tool.name} is not available on this server.`, isError: true };
    }
  }

  private awaitClientTool(id: string, timeoutMs: number, signal: AbortSignal): Promise<ToolAnswer> {
    return new Promise((resolve) => {
      const done = (answer: ToolAnswer) => {
        clearTimeout(timer);
        this.clientTools.delete(id);
        signal.removeEventListener('abort', aborted);
        resolve(answer);
      };
      const aborted = () => done({ text: 'The turn was interrupted.', isError: true, endsTurn: true });
      const timer = setTimeout(
        () =>
          done({
            text: `The client did not answer within ${Math.round(timeoutMs / 1000)} s.`,
            isError: true,
          }),
        timeoutMs,
      );
      timer.unref();
      signal.addEventListener('abort', aborted, { once: true });
      this.socket.onClose(() => done({ text: 'The client left.', isError: true, endsTurn: true }));
      this.clientTools.set(id, done);
    });
  }

  // ---- Ending -----------------------------------------------------------------------------------------

  private expire(): void {
    this.socket.send({
      type: 'error',
      error_event: {
        code: WS_CLOSE.normal,
        message: `A conversation lasts at most ${describeDuration(this.agent ? this.agent.maxDurationSecs * 1000 : this.deps.config.realtime.maxSocketMs)}.`,
        error_type: 'max_duration_exceeded',
      },
    });
    this.end('Maximum duration reached.');
  }

  /** A normal end by the agent (close 1000). */
  private end(reason: string): void {
    this.ending = true;
    this.terminationReason = reason;
    this.socket.close(WS_CLOSE.normal, reason);
  }

  private terminationReason: string | undefined;
  private failure: { code: number; reason: string } | undefined;

  /** Sends the protocol's error, then closes (once). */
  failWith(error: unknown): void {
    const failure = toConversationError(error);
    if (failure.type === 'internal_error') this.deps.logger.warn({ err: error }, 'a conversation failed');
    this.failure ??= { code: failure.code, reason: failure.message };
    this.socket.fail(
      {
        type: 'error',
        error_event: { code: failure.code, message: failure.message, error_type: failure.type },
      },
      failure.code,
      failure.message,
    );
  }

  private closedOnce: Promise<void> | undefined;
  /** The socket closed (set first thing when it does). */
  private isClosed = false;

  /** The socket closed (either side): stop, keep the transcript and recording, free the place. */
  /**
   * The socket closed (either side): stop what runs. The conversation is finished once, by whichever of
   * this and `start()` comes second (a close while the conversation opens would otherwise miss its row).
   */
  private closed(): Promise<void> {
    this.closedOnce ??= (async () => {
      this.isClosed = true;
      this.clearTimers();
      this.current?.controller.abort();
      this.vad?.close();
      this.vad = undefined;
      for (const done of [...this.clientTools.values()])
        done({ text: 'The client left.', isError: true, endsTurn: true });
      await this.turns.catch(() => undefined);
      await this.finish();
    })();
    return this.closedOnce;
  }

  private clearTimers(): void {
    for (const timer of this.timers.splice(0)) clearTimeout(timer);
  }

  private finishedOnce: Promise<void> | undefined;

  /** Keeps the conversation (transcript, recording, minutes stopped) once it exists and the socket closed. */
  private finish(): Promise<void> {
    const conversation = this.conversation;
    if (!conversation || !this.isClosed) return Promise.resolve();
    this.finishedOnce ??= finishConversation(this.deps, this.services, conversation, {
      durationSecs: Math.round(this.elapsedSecs),
      transcript: this.transcript,
      recording: this.recording,
      failed: this.failure,
      terminationReason:
        this.terminationReason ?? (this.failure ? this.failure.reason : 'Client disconnected.'),
    }).catch((error: unknown) => this.deps.logger.error({ err: error }, 'a conversation could not be kept'));
    return this.finishedOnce;
  }
}

/** The token of a `bearer.<token>` subprotocol the client offered, if any. */
export function bearerSubprotocol(header: string | string[] | undefined): string | undefined {
  const offered = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  const bearer = offered.map((p) => p.trim()).find((p) => p.startsWith('bearer.'));
  const token = bearer?.slice('bearer.'.length);
  return token ? token : undefined;
}

function pcmBytes(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i += 1) out.writeInt16LE(samples[i] as number, i * 2);
  return out;
}

function resampleAll(samples: Int16Array, from: number, to: number): Int16Array {
  const resampler = new Resampler(from, to);
  const head = resampler.push(samples);
  const tail = resampler.flush();
  const out = new Int16Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}
