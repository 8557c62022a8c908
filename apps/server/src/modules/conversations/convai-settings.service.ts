import {
  type ConvAiDailyAnalytics,
  type ConvAiSettings,
  type ConversationUsersPage,
  type DashboardChart,
  type DashboardSettings,
  type LlmUsageResponse,
  type PatchConvAiSettings,
  PLAN_IDS,
  PLAN_NUMBERS,
  RAG_RETENTION_DAYS,
  tierLimits,
} from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import { invalid } from '../../platform/errors';
import { AddressNotAllowedError, resolvePublicAddresses } from '../../platform/network-address';
import { agentDepsOf, openSecrets, privateToolAddressMessage } from '../agents';
import { requireWorkspaceWebhook } from '../webhooks';
import {
  analysesSince,
  countLiveConversations,
  dailyConversationTotals,
  getConvaiSettingsRow,
  listConversationUsers,
  upsertConvaiSettings,
} from './convai-settings.store';
import { CONVERSATION_HEARTBEAT_STALE_MS } from './conversation-lifecycle';
import { tierOf } from './conversations.store';
import type { ConvaiSettingsRow } from './conversations.tables';
import type { InitiationWebhookCall } from './initiation-webhook';
import type { SessionAgent } from './session-agent';

/*
 * The workspace's Conversational AI settings and analytics (issue 28, the settings page and §7's
 * analytics): what the public API's `conversationalAi.settings`, `dashboard.settings`,
 * `analytics.liveCount`, `users.list` and `llmUsage.calculate` answer, from this server's own rows.
 */

type Deps = Pick<AppDeps, 'database' | 'clock' | 'config' | 'providers'>;

/** What each setting does here, in the answer itself (some are kept for the API and do nothing). */
const NOTES: Record<string, string> = {
  conversation_initiation_client_data_webhook:
    'Called (POST, JSON) when a conversation starts with an agent that enables "fetch initiation data from the webhook" in its security settings; its dynamic_variables and conversation_config_override answer are applied on top of the client\'s, within 5 s, or the conversation ends with an error. Private addresses are refused unless AGENT_TOOL_ALLOW_PRIVATE_URLS.',
  'webhooks.post_call_webhook_id':
    'The workspace webhook that receives each ended conversation (post_call_transcription). When null, every webhook subscribed to post_call_transcription receives it.',
  'webhooks.exclude_transcript': 'When true, the post-call event is sent without the transcript.',
  'webhooks.events':
    'Kept as set. This server sends the transcript event only: it has no phone calls (call_initiation_failure, answering_machine_detection) and sends no audio or unredacted forms in webhooks.',
  'webhooks.send_audio':
    'Kept as set; audio is not sent in webhooks here (read it from the conversation’s audio call).',
  'webhooks.transcript_format': 'Kept as set; the transcript is sent as JSON.',
  rag_retention_period_days:
    'Kept as set and has no effect here: the knowledge base is indexed by PostgreSQL full-text search, which keeps its index as long as the document exists (there is no separate RAG index to expire).',
  conversation_embedding_retention_days:
    'Kept as set and has no effect here: this server computes no conversation embeddings. Conversations themselves are deleted after their agent’s retention_days.',
  can_use_mcp_servers: 'Kept as set; this server has no MCP server support.',
  default_livekit_stack: 'Kept as set; conversations are held over WebSocket only (no LiveKit/WebRTC).',
};

function settingsOf(row: ConvaiSettingsRow | undefined): ConvAiSettings {
  const options = row?.webhookOptions ?? {};
  return {
    conversation_initiation_client_data_webhook: row?.initiationWebhook ?? null,
    webhooks: {
      post_call_webhook_id: row?.postCallWebhookId ?? null,
      events: (options.events as ConvAiSettings['webhooks']['events'] | undefined) ?? ['transcript'],
      transcript_format: (options.transcript_format as 'json' | 'opentelemetry' | undefined) ?? 'json',
      exclude_transcript: options.exclude_transcript === true,
      send_audio: options.send_audio === true,
    },
    can_use_mcp_servers: row?.canUseMcpServers ?? false,
    rag_retention_period_days: row?.ragRetentionPeriodDays ?? RAG_RETENTION_DAYS.default,
    conversation_embedding_retention_days: row?.conversationEmbeddingRetentionDays ?? null,
    default_livekit_stack: row?.defaultLivekitStack ?? 'standard',
    notes: NOTES,
  };
}

export async function getConvaiSettings(deps: Deps, workspaceId: string): Promise<ConvAiSettings> {
  return settingsOf(await getConvaiSettingsRow(deps.database.db, workspaceId));
}

const WEBHOOK_FIELD = 'conversation_initiation_client_data_webhook';

/** The initiation webhook's URL checked as a webhook tool's is at save time (agent-tools.service.ts). */
async function checkInitiationUrl(deps: Deps, value: string): Promise<void> {
  const url = new URL(value);
  const production = deps.config.env === 'production';
  if (url.protocol !== 'https:' && production)
    throw invalid(`${WEBHOOK_FIELD}.url`, 'The URL must start with https://.');
  try {
    await resolvePublicAddresses(url.hostname, deps.config.agents.allowPrivateToolUrls);
  } catch (error) {
    if (error instanceof AddressNotAllowedError)
      throw invalid(
        `${WEBHOOK_FIELD}.url`,
        privateToolAddressMessage(error.address).replace("The tool's URL", 'The webhook URL'),
      );
    throw invalid(`${WEBHOOK_FIELD}.url`, `The host ${url.hostname} could not be found.`);
  }
}

export async function updateConvaiSettings(
  deps: Deps,
  workspaceId: string,
  patch: PatchConvAiSettings,
): Promise<ConvAiSettings> {
  const db = deps.database.db;
  const set: Parameters<typeof upsertConvaiSettings>[2] = {};
  const hook = patch.conversation_initiation_client_data_webhook;
  if (hook !== undefined) {
    if (hook) {
      await checkInitiationUrl(deps, hook.url);
      const secretIds = Object.values(hook.request_headers).flatMap((v) =>
        typeof v === 'string' ? [] : [v.secret_id],
      );
      if (secretIds.length > 0) {
        const found = await openSecrets(agentDepsOf(deps), workspaceId, secretIds);
        const missing = secretIds.find((id) => !found.has(id));
        if (missing)
          throw invalid(
            `${WEBHOOK_FIELD}.request_headers`,
            `The secret ${JSON.stringify(missing)} is not one of this workspace's secrets (/v1/convai/secrets).`,
          );
      }
      set.initiationWebhook = { url: hook.url.trim(), request_headers: hook.request_headers };
    } else set.initiationWebhook = null;
  }
  if (patch.webhooks) {
    const { post_call_webhook_id: id, ...options } = patch.webhooks;
    if (id !== undefined) {
      // Another workspace's webhook is not found, as everywhere (404).
      if (id !== null) await requireWorkspaceWebhook({ db }, workspaceId, id);
      set.postCallWebhookId = id;
    }
    if (Object.keys(options).length > 0) {
      const current = (await getConvaiSettingsRow(db, workspaceId))?.webhookOptions ?? {};
      set.webhookOptions = { ...current, ...options };
    }
  }
  if (patch.can_use_mcp_servers !== undefined) set.canUseMcpServers = patch.can_use_mcp_servers;
  if (patch.rag_retention_period_days !== undefined)
    set.ragRetentionPeriodDays = patch.rag_retention_period_days;
  if (patch.conversation_embedding_retention_days !== undefined)
    set.conversationEmbeddingRetentionDays = patch.conversation_embedding_retention_days;
  if (patch.default_livekit_stack !== undefined) set.defaultLivekitStack = patch.default_livekit_stack;
  if (Object.keys(set).length === 0) return getConvaiSettings(deps, workspaceId);
  return settingsOf(await upsertConvaiSettings(db, workspaceId, set, deps.clock.now()));
}

/** The conversation's side: the initiation webhook with its secret headers opened, if one is set. */
export async function initiationWebhookOf(
  deps: Deps,
  workspaceId: string,
): Promise<InitiationWebhookCall | undefined> {
  const hook = (await getConvaiSettingsRow(deps.database.db, workspaceId))?.initiationWebhook;
  if (!hook) return undefined;
  const entries = Object.entries(hook.request_headers);
  const secrets = await openSecrets(
    agentDepsOf(deps),
    workspaceId,
    entries.flatMap(([, v]) => (typeof v === 'string' ? [] : [v.secret_id])),
  );
  // A secret deleted since is sent empty, as a webhook tool's is.
  const headers = Object.fromEntries(
    entries.map(([name, v]) => [name, typeof v === 'string' ? v : (secrets.get(v.secret_id) ?? '')]),
  );
  return { url: hook.url, headers };
}

/** The post-call choices for an ended conversation's event. */
export async function postCallChoiceOf(
  deps: Pick<Deps, 'database'>,
  workspaceId: string,
): Promise<{ webhookId: string | null; excludeTranscript: boolean }> {
  const row = await getConvaiSettingsRow(deps.database.db, workspaceId);
  return {
    webhookId: row?.postCallWebhookId ?? null,
    excludeTranscript: row?.webhookOptions.exclude_transcript === true,
  };
}

// ---------------------------------------------------------------------------------------------------
// The dashboard

export async function getDashboardSettings(deps: Deps, workspaceId: string): Promise<DashboardSettings> {
  const row = await getConvaiSettingsRow(deps.database.db, workspaceId);
  return { charts: row?.dashboardCharts ?? [] };
}

export async function updateDashboardSettings(
  deps: Deps,
  workspaceId: string,
  body: { charts?: DashboardChart[] },
): Promise<DashboardSettings> {
  if (body.charts === undefined) return getDashboardSettings(deps, workspaceId);
  const row = await upsertConvaiSettings(
    deps.database.db,
    workspaceId,
    { dashboardCharts: body.charts },
    deps.clock.now(),
  );
  return { charts: row.dashboardCharts ?? [] };
}

export async function liveCount(
  deps: Deps,
  workspaceId: string,
  query: { agent_id?: string; agent_ids?: string | string[] },
): Promise<{ count: number }> {
  // agent_ids wins over agent_id, as the public API says; an unknown agent simply has none in progress.
  const ids =
    query.agent_ids !== undefined
      ? [query.agent_ids]
          .flat()
          .flatMap((v) => v.split(','))
          .map((v) => v.trim())
          .filter(Boolean)
      : query.agent_id
        ? [query.agent_id]
        : undefined;
  const since = new Date(deps.clock.now().getTime() - CONVERSATION_HEARTBEAT_STALE_MS);
  return { count: await countLiveConversations(deps.database.db, workspaceId, since, ids) };
}

/** The post-call analyses a chart reads, at most this many (the newest). */
const MAX_ANALYSES = 10_000;
const DAY_MS = 86_400_000;

export async function dailyAnalytics(
  deps: Deps,
  workspaceId: string,
  query: { days: number; agent_id?: string },
): Promise<ConvAiDailyAnalytics> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (query.days - 1) * DAY_MS);
  const totals = new Map(
    (await dailyConversationTotals(db, workspaceId, since, query.agent_id)).map((d) => [d.date, d]),
  );
  // Every day of the range, the quiet ones too: a chart's axis is days, not rows.
  const days = Array.from({ length: query.days }, (_, i) => {
    const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const row = totals.get(date);
    return { date, conversations: row?.conversations ?? 0, minutes: row?.minutes ?? 0 };
  });
  const charts = (await getConvaiSettingsRow(db, workspaceId))?.dashboardCharts ?? [];
  const analyses =
    charts.length > 0 ? await analysesSince(db, workspaceId, since, query.agent_id, MAX_ANALYSES) : [];
  return {
    days,
    charts: charts.map((chart) => {
      const figures = { analysed: analyses.length, success: 0, failure: 0, unknown: 0, collected: 0 };
      for (const a of analyses) {
        if (chart.type === 'call_success') figures[a.call_successful] += 1;
        else if (chart.type === 'criteria') {
          const result = a.evaluation_criteria_results[chart.criteria_id]?.result;
          if (result) figures[result] += 1;
        } else {
          const value = a.data_collection_results[chart.data_collection_id]?.value;
          if (value !== undefined && value !== null && value !== '') figures.collected += 1;
        }
      }
      return {
        type: chart.type,
        name: chart.name,
        id:
          chart.type === 'criteria'
            ? chart.criteria_id
            : chart.type === 'data_collection'
              ? chart.data_collection_id
              : null,
        ...figures,
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------
// The users who talked to agents

const CURSOR_PREFIX = 'cu1_';

export async function listUsers(
  deps: Deps,
  workspaceId: string,
  q: {
    agent_id?: string;
    branch_id?: string;
    call_start_before_unix?: number;
    call_start_after_unix?: number;
    search?: string;
    page_size: number;
    sort_by: 'last_contact_unix_secs' | 'conversation_count' | 'average_sentiment_score';
    sort_direction: 'asc' | 'desc';
    cursor?: string;
  },
): Promise<ConversationUsersPage> {
  if (q.branch_id !== undefined)
    throw invalid('branch_id', 'Agents have no branches on this server; leave branch_id out.', 'query');
  if (q.sort_by === 'average_sentiment_score')
    throw invalid(
      'sort_by',
      'No sentiment is scored on this server; sort by last_contact_unix_secs or conversation_count.',
      'query',
    );
  let offset = 0;
  if (q.cursor !== undefined) {
    const n = q.cursor.startsWith(CURSOR_PREFIX) ? Number(q.cursor.slice(CURSOR_PREFIX.length)) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 0)
      throw invalid('cursor', 'The cursor is not one this list gave; start again without it.', 'query');
    offset = n;
  }
  const rows = await listConversationUsers(deps.database.db, {
    workspaceId,
    agentId: q.agent_id,
    before: q.call_start_before_unix !== undefined ? new Date(q.call_start_before_unix * 1000) : undefined,
    after: q.call_start_after_unix !== undefined ? new Date(q.call_start_after_unix * 1000) : undefined,
    userId: q.search,
    sortBy: q.sort_by,
    direction: q.sort_direction,
    offset,
    limit: q.page_size + 1,
  });
  const hasMore = rows.length > q.page_size;
  const secs = (d: Date) => Math.floor(d.getTime() / 1000);
  return {
    users: rows.slice(0, q.page_size).map((r) => ({
      user_id: r.userId,
      last_contact_unix_secs: secs(r.lastAt),
      first_contact_unix_secs: secs(r.firstAt),
      conversation_count: r.count,
      last_contact_agent_id: r.lastAgentId,
      last_contact_conversation_id: r.lastConversationId,
      last_contact_agent_name: r.lastAgentName,
      sentiment: {
        scored_conversation_count: 0,
        positive_count: 0,
        neutral_count: 0,
        negative_count: 0,
        average_sentiment_score: null,
        average_frustration_score: null,
        recent_scored_conversation_count: 0,
        recent_positive_count: 0,
        recent_neutral_count: 0,
        recent_negative_count: 0,
        recent_average_sentiment_score: null,
        recent_average_frustration_score: null,
      },
      most_frustrated_conversations: [],
    })),
    next_cursor: hasMore ? `${CURSOR_PREFIX}${offset + q.page_size}` : null,
    has_more: hasMore,
  };
}

// ---------------------------------------------------------------------------------------------------
// What the language model costs

/** Characters a token, the usual estimate for English. */
const CHARS_PER_TOKEN = 4;
/** What one turn adds from the knowledge base: PASSAGES_FOR_MODEL (responder.ts) passages of ~1,000 characters. */
const RETRIEVED_CHARACTERS = 3 * 1_000;

export async function calculateLlmUsage(
  deps: Deps,
  workspaceId: string,
  input: { prompt_length: number; number_of_pages: number; rag_enabled: boolean },
  agentLlm?: string,
): Promise<LlmUsageResponse> {
  const status = deps.providers.llm.status();
  const tier = (await tierOf(deps.database.db, workspaceId)) ?? 'free';
  const plan = PLAN_IDS.includes(tier as (typeof PLAN_IDS)[number])
    ? PLAN_NUMBERS[tier as (typeof PLAN_IDS)[number]]
    : undefined;
  const model = status.available ? (status.model ?? status.name) : 'none (knowledge-base mode)';
  // On this server the knowledge base is searched every turn whatever rag_enabled says (responder.ts):
  // a turn carries the best passages, never whole documents.
  const retrieved = input.number_of_pages > 0 ? RETRIEVED_CHARACTERS : 0;
  const where = status.available
    ? status.name === 'embedded'
      ? 'the embedded model runs on this server'
      : "the model runs on the operator's OpenAI-compatible server, whose own costs (if any) are the operator's"
    : 'no language model is configured: agents answer with the best knowledge-base passage';
  return {
    llm_prices: [{ llm: model, price_per_minute: 0, price_per_message: 0 }],
    note:
      `This server does not charge for the language model: ${where}. Conversations are charged by the minute ` +
      'against the plan (each started minute of a connected conversation, accounts §9), whatever the model, ' +
      'prompt or knowledge base; the prices here are therefore 0 USD.' +
      (agentLlm && agentLlm !== model
        ? ` The agent names ${JSON.stringify(agentLlm)}; this server answers with ${model}.`
        : ''),
    conversation_minutes: {
      included_per_period: tierLimits[tier].conversationalMinutes,
      extra_minute_usd: plan?.extraConversationalMinuteUsd?.monthly ?? null,
    },
    estimated_prompt_tokens_per_message: Math.ceil((input.prompt_length + retrieved) / CHARS_PER_TOKEN),
  };
}

/** The agent's own figures where the body leaves them out: its prompt, its documents. */
export function agentLlmUsageInput(
  agent: SessionAgent,
  body: { prompt_length?: number; number_of_pages?: number; rag_enabled?: boolean },
): { prompt_length: number; number_of_pages: number; rag_enabled: boolean } {
  return {
    prompt_length: body.prompt_length ?? agent.prompt.length,
    number_of_pages: body.number_of_pages ?? agent.knowledgeBaseIds.length,
    rag_enabled: body.rag_enabled ?? agent.knowledgeBaseIds.length > 0,
  };
}
