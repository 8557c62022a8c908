import type { ConversationTranscriptTurn, ResponseMode } from '@parla/contracts';
import { tierLimits } from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { encodeAudio } from '../../platform/media/encode-audio';
import { lockWorkspace } from '../workspaces';
import { type ConversationServices, SIGNATURE_REFUSED } from './conversation-services';
import {
  addMinuteCharged,
  consumeSignature,
  countOpenConversations,
  heartbeat,
  insertConversation,
  minutesOf,
  takeMinute,
  tierOf,
  updateConversation,
} from './conversations.store';
import { type ConversationRecording, RECORDING_RATE } from './recording';
import type { SessionAgent } from './session-agent';

/*
 * A conversation's life on the books (issue 28 items 5 and 6): the plan's concurrent-conversation limit
 * and minutes checked when it opens (accounts §9; refused before anything is said), its first minute taken
 * then and each next minute as it starts (billed per connected minute, el-facts "Agents"), a heartbeat
 * while it is open, and, when it closes, its transcript, duration and recording kept.
 */

/** A conversation whose heartbeat is older than this no longer counts as open (its process died). */
export const CONVERSATION_HEARTBEAT_STALE_MS = 60_000;

export interface OpenedConversation {
  id: string;
  workspaceId: string;
  agent: SessionAgent;
  heartbeat(durationSecs: number): Promise<void>;
  feedback(score: 'like' | 'dislike' | null): Promise<void>;
  /** Stops charging minutes. */
  stop(): void;
}

export async function openConversationRecord(
  deps: AppDeps,
  services: ConversationServices,
  input: {
    agent: SessionAgent;
    authorization: 'public' | 'signed_url' | 'authorization_header';
    userId: string | null;
    clientUserId: string | null;
    responseMode: ResponseMode;
    responseModeReason: string;
    initiationData: Record<string, unknown> | null;
    /** The signed URL's signature it was opened with: used up once the conversation starts. */
    signature?: string | undefined;
    /** Whether the caller who opened it still has access (checked before each next minute). */
    stillAuthorized: () => Promise<boolean>;
    /** The caller's access went (a key revoked, a seat lost) mid-conversation. */
    onRevoked: () => void;
    /** The minutes ran out mid-conversation (a plan that sells no extra minutes). */
    onQuotaEnd: () => void;
  },
): Promise<OpenedConversation> {
  const db = deps.database.db;
  const workspaceId = input.agent.workspaceId;
  const id = `conv_${newId(24)}`;
  const retention = input.agent.retentionDays;
  const now = deps.clock.now();
  // The count, the minute, the signed URL and the row in one transaction under the workspace's row lock
  // (as credits' spends are): two sockets opening at once cannot both pass the concurrency check
  // (accounts §9), and a refused start takes no minute and leaves its signed URL unused.
  const limits = await db.transaction(async (tx) => {
    if (!(await lockWorkspace(tx, workspaceId))) throw notFound('The agent');
    const tierLimit = tierLimits[(await tierOf(tx, workspaceId)) ?? 'free'];
    const open = await countOpenConversations(
      tx,
      workspaceId,
      new Date(now.getTime() - CONVERSATION_HEARTBEAT_STALE_MS),
    );
    if (open >= tierLimit.conversationalConcurrency)
      throw new AppError(
        'too_many_concurrent_requests',
        `The workspace has ${open} conversations open, the most its plan allows at once (${tierLimit.conversationalConcurrency}). Try again when one ends.`,
      );
    const first = await takeMinute(
      tx,
      workspaceId,
      tierLimit.conversationalMinutes,
      tierLimit.extraConversationalMinutes,
    );
    if (!first)
      throw new AppError(
        'quota_exceeded',
        `The workspace's ${tierLimit.conversationalMinutes.toLocaleString('en-US')} conversation minutes for this period are used up. Upgrade the plan for more.`,
      );
    // A signed URL is used up only by a conversation that starts (the same URL may be tried again).
    if (
      input.signature !== undefined &&
      !(await consumeSignature(tx, input.signature, input.agent.agentId, now))
    )
      throw new AppError('unauthorized', SIGNATURE_REFUSED);
    await insertConversation(tx, {
      id,
      workspaceId,
      agentId: input.agent.agentId,
      agentName: input.agent.name,
      userId: input.userId,
      clientUserId: input.clientUserId,
      status: 'in-progress',
      authorizationMethod: input.authorization,
      responseMode: input.responseMode,
      responseModeReason: input.responseModeReason,
      textOnly: input.agent.textOnly,
      language: input.agent.language,
      startedAt: now,
      heartbeatAt: now,
      minutesCharged: 1,
      initiationData: input.initiationData,
      deleteAfter: retention >= 0 ? new Date(now.getTime() + retention * 86_400_000) : null,
    });
    return tierLimit;
  });
  // Each next minute is taken as it starts; a plan without extra minutes ends the conversation instead.
  const minutes = setInterval(() => {
    void (async () => {
      if (!(await input.stillAuthorized())) {
        clearInterval(minutes);
        input.onRevoked();
        return;
      }
      const taken = await takeMinute(
        db,
        workspaceId,
        limits.conversationalMinutes,
        limits.extraConversationalMinutes,
      );
      if (!taken) {
        clearInterval(minutes);
        input.onQuotaEnd();
        return;
      }
      await addMinuteCharged(db, id);
    })().catch((error: unknown) => deps.logger.warn({ err: error }, 'a conversation minute was not counted'));
  }, services.minuteMs);
  minutes.unref();
  return {
    id,
    workspaceId,
    agent: input.agent,
    heartbeat: (durationSecs) => heartbeat(db, id, deps.clock.now(), durationSecs),
    feedback: (score) => updateConversation(db, id, { feedback: score }),
    stop: () => clearInterval(minutes),
  };
}

/** The conversation ended: its row says so with the transcript; the recording is encoded and kept. */
export async function finishConversation(
  deps: AppDeps,
  services: ConversationServices,
  conversation: OpenedConversation,
  input: {
    durationSecs: number;
    transcript: ConversationTranscriptTurn[];
    recording: ConversationRecording;
    failed: { code: number; reason: string } | undefined;
    terminationReason: string;
  },
): Promise<void> {
  conversation.stop();
  const db = deps.database.db;
  await updateConversation(db, conversation.id, {
    status: 'processing',
    durationSecs: input.durationSecs,
    endedAt: deps.clock.now(),
    transcript: input.transcript,
    terminationReason: input.terminationReason,
    errorCode: input.failed?.code ?? null,
  });
  let audioKey: string | null = null;
  const recorded = input.recording.hasUserAudio || input.recording.hasAgentAudio;
  if (conversation.agent.recordVoice && recorded) {
    try {
      const mp3 = await encodeAudio(
        { sampleRate: RECORDING_RATE, channels: 1, samples: input.recording.mix() },
        'mp3_44100_128',
        120_000,
      );
      audioKey = `conversations/${conversation.workspaceId}/${conversation.id}.mp3`;
      await deps.storage.put(audioKey, mp3);
    } catch (error) {
      audioKey = null;
      deps.logger.warn({ err: error }, 'a conversation recording could not be kept');
    }
  }
  await updateConversation(db, conversation.id, {
    status: input.failed && input.failed.code !== 1000 && input.transcript.length === 0 ? 'failed' : 'done',
    audioKey,
    hasUserAudio: audioKey !== null && input.recording.hasUserAudio,
    hasResponseAudio: audioKey !== null && input.recording.hasAgentAudio,
  });
  await services
    .ended(conversation)
    .catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'the post-call work of a conversation failed'),
    );
}

/** The workspace's conversation minutes this period and its conversations open now (the usage page). */
export async function conversationUsage(deps: AppDeps, workspaceId: string) {
  const db = deps.database.db;
  const limits = tierLimits[(await tierOf(db, workspaceId)) ?? 'free'];
  const minutes = await minutesOf(db, workspaceId);
  const since = new Date(deps.clock.now().getTime() - CONVERSATION_HEARTBEAT_STALE_MS);
  return {
    minutes_used: minutes.used,
    minutes_limit: limits.conversationalMinutes,
    extra_minutes: minutes.extra,
    extra_minutes_allowed: limits.extraConversationalMinutes,
    open_conversations: await countOpenConversations(db, workspaceId, since),
    concurrency_limit: limits.conversationalConcurrency,
  };
}
