import { randomBytes } from 'node:crypto';
import { CONVERSATION_LIMITS, type ConversationInitiationClientData } from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import type { Principal } from '../../platform/auth-guard';
import { AppError, notFound as notFoundError } from '../../platform/errors';
import { conversationEnded } from '../../platform/events/catalog';
import { STT_SAMPLE_RATE } from '../../providers/stt/stt-provider';
import { originAllowed } from '../agents';
import { prepareSpeech, renderSpeech, type SpeechPlan, ttsDepsOf } from '../tts';
import { initiationWebhookOf, postCallChoiceOf } from './convai-settings.service';
import { detailOf } from './conversations.service';
import {
  findConversation,
  findUsableSignature,
  insertSignature,
  updateConversation,
} from './conversations.store';
import { fetchInitiationData, InitiationWebhookFailed } from './initiation-webhook';
import { analyseConversation } from './post-call-analysis';
import { RECORDING_RATE } from './recording';
import type { ChatModel, Responder } from './responder';
import { knowledgeBaseResponder, modelResponder } from './responder';
import type { SessionAgent } from './session-agent';

/*
 * What a conversation uses from the rest of the app (issue 28), in one place: the agent (the agents
 * module), its knowledge base (the knowledge-base module), the language model (providers/llm), speech in
 * the agent's voice (the tts module, unmetered: a conversation is charged by the minute), and the
 * recogniser. The session (conversation-session.ts) sees only this interface, so its protocol tests can
 * give it the real app's services or their own.
 */

/** One sentence of the agent, spoken. */
export interface SpokenSentence {
  sampleRate: number;
  samples: Int16Array;
  /** The client's alignment shape (`audio_event.alignment`). */
  alignment: { chars: string[]; char_start_times_ms: number[]; char_durations_ms: number[] };
}

export interface AuthorizeInput {
  agentId: string;
  signature: string | undefined;
  apiKey: string | undefined;
  authorization: string | undefined;
  origin: string | undefined;
}

export interface AuthorizedConversation {
  agent: SessionAgent;
  authorization: 'public' | 'signed_url' | 'authorization_header';
  userId: string | null;
  /** The signed URL's signature, checked but not yet used up (the conversation's start uses it). */
  signature?: string;
  /** The API key's or session's caller, checked again while the conversation runs. */
  principal?: Principal;
}

export const SIGNATURE_REFUSED = 'This signed URL is unknown, expired, already used, or for another agent.';

export interface ConversationServices {
  authorize(input: AuthorizeInput): Promise<AuthorizedConversation>;
  responderFor(agent: SessionAgent): Promise<Responder>;
  speak(text: string, agent: SessionAgent, signal: AbortSignal): Promise<SpokenSentence | undefined>;
  /** The user's utterance (16 kHz) as text. */
  transcribe(samples: Int16Array, agent: SessionAgent): Promise<string>;
  /**
   * The initiation data from the workspace's initiation webhook, for an agent that asks for it (none
   * otherwise); throws InitiationWebhookFailed when it cannot be had.
   */
  initiationData?(
    agent: SessionAgent,
    client: ConversationInitiationClientData | undefined,
    signal: AbortSignal,
  ): Promise<ConversationInitiationClientData | undefined>;
  /** After a conversation is kept: post-call work (the webhook, analysis). */
  ended(conversation: { id: string; workspaceId: string; agent: SessionAgent }): Promise<void>;
  /** Whether webhook tools may call private addresses (the operator's choice). */
  allowPrivateToolUrls: boolean;
  /** A minute, in ms (tests shorten it). */
  minuteMs: number;
}

/** How the app finds an agent and its language model (the agents module and providers/llm, adapted). */
export interface ConversationSources {
  loadAgent(agentId: string): Promise<SessionAgent | undefined>;
  /** A conversation with the agent started (the agents list's last call time). */
  started(agentId: string): void;
  /** The language model, or why there is none (knowledge-base mode then). */
  chatModel(): { model: ChatModel } | { reason: string };
  searchKnowledge(
    workspaceId: string,
    documentIds: string[],
    query: string,
    limit: number,
  ): Promise<
    {
      documentId: string;
      documentName: string;
      chunkId: string;
      text: string;
      score: number;
      /** `full_text`, or the embedding model that ranked it (the transcript's `embedding_model`). */
      retrieval?: string;
    }[]
  >;
}

/** A signed URL's signature for an agent, for the caller (`get-signed-url`). */
export async function issueSignature(
  deps: AppDeps,
  input: { agentId: string; workspaceId: string; userId: string },
): Promise<string> {
  const signature = `cvsig_${randomBytes(24).toString('hex')}`;
  const now = deps.clock.now();
  await insertSignature(
    deps.database.db,
    {
      signature,
      agentId: input.agentId,
      workspaceId: input.workspaceId,
      userId: input.userId,
      expiresAt: new Date(now.getTime() + CONVERSATION_LIMITS.signedUrlTtlMs),
    },
    now,
  );
  return signature;
}

const notFound = (agentId: string) => notFoundError(`The agent ${JSON.stringify(agentId.slice(0, 64))}`);

export function conversationServicesOf(deps: AppDeps, sources: ConversationSources): ConversationServices {
  const tts = ttsDepsOf(deps);
  const plans = new Map<string, Promise<SpeechPlan>>();
  const planFor = (agent: SessionAgent): Promise<SpeechPlan> => {
    const key = `${agent.agentId}:${agent.ownerUserId}:${agent.voiceId}:${agent.ttsModelId}:${agent.language}:${agent.speed}:${agent.stability}:${agent.similarityBoost}`;
    let plan = plans.get(key);
    if (!plan) {
      plan = prepareSpeech(
        tts,
        { workspaceId: agent.workspaceId, userId: agent.ownerUserId },
        {
          voiceId: agent.voiceId,
          body: {
            text: 'Hello.',
            model_id: agent.ttsModelId,
            apply_text_normalization: 'auto',
            language_code: agent.language,
            voice_settings: {
              stability: agent.stability,
              similarity_boost: agent.similarityBoost,
              speed: agent.speed,
            },
          },
        },
      );
      plans.set(key, plan);
      plan.catch(() => plans.delete(key));
      // The plans of an agent whose settings changed are let go; a handful at most stay.
      if (plans.size > 64) plans.delete(plans.keys().next().value as string);
    }
    return plan;
  };

  return {
    allowPrivateToolUrls: deps.config.agents.allowPrivateToolUrls,
    minuteMs: 60_000,
    async authorize(input) {
      const db = deps.database.db;
      const agent = await sources.loadAgent(input.agentId);
      if (!agent) throw notFound(input.agentId);
      const now = deps.clock.now();
      if (input.signature !== undefined) {
        // Checked here, used up only when the conversation starts (conversation-lifecycle.ts).
        const owner = await findUsableSignature(db, input.signature, input.agentId, now);
        if (!owner || owner.workspaceId !== agent.workspaceId)
          throw new AppError('unauthorized', SIGNATURE_REFUSED);
        sources.started(agent.agentId);
        return {
          agent,
          authorization: 'signed_url',
          userId: owner.userId,
          signature: input.signature,
        };
      }
      if (input.apiKey !== undefined || input.authorization !== undefined) {
        const principal = await deps.auth.authenticateSocket({
          apiKey: input.apiKey,
          authorization: input.authorization,
        });
        // Another workspace's agent is not found, as everywhere.
        if (principal.workspaceId !== agent.workspaceId) throw notFound(input.agentId);
        sources.started(agent.agentId);
        return { agent, authorization: 'authorization_header', userId: principal.userId, principal };
      }
      if (agent.auth.enable_auth)
        throw new AppError(
          'unauthorized',
          'This agent needs authorisation: open the conversation with a signed URL (GET /v1/convai/conversation/get-signed-url).',
        );
      if (!originAllowed(agent.auth, input.origin))
        throw new AppError(
          'unauthorized',
          `This agent does not accept conversations from ${input.origin ?? 'a page without an origin'}.`,
        );
      sources.started(agent.agentId);
      return { agent, authorization: 'public', userId: null };
    },

    async initiationData(agent, client, signal) {
      if (!agent.initiationFromWebhook) return undefined;
      const call = await initiationWebhookOf(deps, agent.workspaceId);
      if (!call)
        throw new InitiationWebhookFailed(
          "This agent fetches its initiation data from the workspace's conversation initiation webhook, but none is set (conversation_initiation_client_data_webhook in PATCH /v1/convai/settings).",
        );
      return fetchInitiationData(
        call,
        {
          agent_id: agent.agentId,
          user_id: client?.user_id ?? null,
          caller_id: null,
          called_number: null,
          call_sid: null,
        },
        { allowPrivate: deps.config.agents.allowPrivateToolUrls, signal },
      );
    },

    async responderFor(agent) {
      const search =
        agent.knowledgeBaseIds.length > 0
          ? (query: string, limit: number) =>
              sources.searchKnowledge(agent.workspaceId, agent.knowledgeBaseIds, query, limit)
          : undefined;
      const chat = sources.chatModel();
      if ('model' in chat) return modelResponder(chat.model, agent, search);
      return knowledgeBaseResponder(search ?? (async () => []), chat.reason);
    },

    async speak(text, agent, signal) {
      const plan = await planFor(agent);
      const result = await renderSpeech(
        tts.engines,
        { ...plan.request, text },
        { tenant: agent.workspaceId, signal },
      );
      const a = result.alignment;
      return {
        sampleRate: result.sampleRate,
        samples: result.samples,
        alignment: {
          chars: a.characters,
          char_start_times_ms: a.character_start_times_seconds.map((s) => Math.round(s * 1000)),
          char_durations_ms: a.character_start_times_seconds.map((s, i) =>
            Math.max(0, Math.round(((a.character_end_times_seconds[i] ?? s) - s) * 1000)),
          ),
        },
      };
    },

    async transcribe(samples) {
      if (samples.length < 0.1 * RECORDING_RATE) return '';
      return deps.providers.stt.transcribe({ sampleRate: STT_SAMPLE_RATE, samples }, { timeoutMs: 30_000 });
    },

    async ended({ id: conversationId, workspaceId, agent }) {
      const db = deps.database.db;
      let row = await findConversation(db, workspaceId, conversationId);
      if (!row) return;
      // Post-call analysis, when the agent asks for one and a language model is there.
      const ask = agent.analysis;
      const chat = sources.chatModel();
      if ((ask.criteria.length > 0 || ask.data.length > 0) && 'model' in chat && row.transcript.length > 0) {
        try {
          const analysis = await analyseConversation(
            chat.model,
            row.transcript,
            ask,
            AbortSignal.timeout(120_000),
          );
          await updateConversation(db, conversationId, { analysis });
          row = { ...row, analysis };
        } catch (error) {
          deps.logger.warn({ err: error }, 'the post-call analysis of a conversation failed');
        }
      }
      // The workspace's webhooks hear of it (the public API's post-call webhook, issue 28 item 5): the one
      // the settings name (`webhooks.post_call_webhook_id`), else every one subscribed to it.
      const choice = await postCallChoiceOf(deps, workspaceId);
      const detail = detailOf(row) as unknown as Record<string, unknown>;
      if (choice.excludeTranscript) delete detail.transcript;
      await deps.events.publish(conversationEnded, {
        workspaceId,
        agentId: row.agentId,
        conversationId,
        conversation: detail,
        postCallWebhookId: choice.webhookId,
      });
    },
  };
}
