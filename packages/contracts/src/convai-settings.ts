import { z } from 'zod';
import { defineRoute } from './routes';

/*
 * Conversational AI's workspace calls (issue 28 item 7 "settings" and §7 analytics): the workspace
 * settings (`conversationalAi.settings`), the dashboard's charts (`conversationalAi.dashboard.settings`),
 * the conversations in progress (`conversationalAi.analytics.liveCount`), the people who talked to the
 * agents (`conversationalAi.users.list`) and what the language model costs a minute
 * (`conversationalAi.llmUsage.calculate`, `agents.llmUsage.calculate`). Shapes from
 * `@elevenlabs/elevenlabs-js`; the wire is snake_case.
 */

/** A header value: text, or a workspace secret (`/v1/convai/secrets`) opened only for the call. */
export const InitiationWebhookHeaderValue = z.union([
  z.string().max(4_000),
  z.object({ secret_id: z.string().min(1).max(64) }).strict(),
]);

/** Header names a client may set (RFC 9110 token), not those the call itself owns. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const OWNED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection']);

/**
 * `conversation_initiation_client_data_webhook`: where an agent that enables
 * `platform_settings.overrides.enable_conversation_initiation_client_data_from_webhook` fetches its
 * dynamic variables and overrides when a conversation starts.
 */
export const ConversationInitiationClientDataWebhook = z
  .object({
    url: z
      .string()
      .max(2_000)
      .refine((url) => {
        try {
          const parsed = new URL(url);
          return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && !parsed.username;
        } catch {
          return false;
        }
      }, 'must be an http(s) URL without credentials'),
    request_headers: z
      .record(z.string(), InitiationWebhookHeaderValue)
      .default({})
      .superRefine((headers, ctx) => {
        const names = Object.keys(headers);
        if (names.length > 20) ctx.addIssue({ code: 'custom', message: 'at most 20 headers' });
        for (const name of names) {
          if (!HEADER_NAME.test(name))
            ctx.addIssue({ code: 'custom', path: [name], message: 'is not a valid header name' });
          else if (OWNED_HEADERS.has(name.toLowerCase()))
            ctx.addIssue({ code: 'custom', path: [name], message: 'is set by the call itself' });
        }
      }),
  })
  .strict();
export type ConversationInitiationClientDataWebhook = z.infer<typeof ConversationInitiationClientDataWebhook>;

export const CONVAI_WEBHOOK_EVENT_TYPES = [
  'transcript',
  'audio',
  'call_initiation_failure',
  'answering_machine_detection',
  'unredacted_transcript',
  'unredacted_audio',
] as const;

/** `webhooks`: which workspace webhook receives the post-call event, and its options. */
export const ConvAiWebhooks = z
  .object({
    /** A webhook of the workspace (`/v1/workspace/webhooks`); null: every webhook subscribed to it. */
    post_call_webhook_id: z.string().min(1).max(64).nullable().optional(),
    events: z.array(z.enum(CONVAI_WEBHOOK_EVENT_TYPES)).max(6).optional(),
    transcript_format: z.enum(['json', 'opentelemetry']).optional(),
    exclude_transcript: z.boolean().optional(),
    send_audio: z.boolean().optional(),
  })
  .strict();
export type ConvAiWebhooks = z.infer<typeof ConvAiWebhooks>;

/** The public API's bounds: RAG index retention up to 30 days. */
export const RAG_RETENTION_DAYS = { min: 1, max: 30, default: 10 } as const;
export const EMBEDDING_RETENTION_DAYS = { min: 1, max: 365, default: 30 } as const;

export const ConvAiSettings = z.object({
  conversation_initiation_client_data_webhook: ConversationInitiationClientDataWebhook.nullable(),
  webhooks: z.object({
    post_call_webhook_id: z.string().nullable(),
    events: z.array(z.enum(CONVAI_WEBHOOK_EVENT_TYPES)),
    transcript_format: z.enum(['json', 'opentelemetry']),
    exclude_transcript: z.boolean(),
    send_audio: z.boolean(),
  }),
  can_use_mcp_servers: z.boolean(),
  rag_retention_period_days: z.number().int(),
  conversation_embedding_retention_days: z.number().int().nullable(),
  default_livekit_stack: z.enum(['standard', 'static']),
  /** Parla: what each setting does on this server, in plain words (some are kept and do nothing here). */
  notes: z.record(z.string(), z.string()),
});
export type ConvAiSettings = z.infer<typeof ConvAiSettings>;

export const PatchConvAiSettings = z
  .object({
    conversation_initiation_client_data_webhook:
      ConversationInitiationClientDataWebhook.nullable().optional(),
    webhooks: ConvAiWebhooks.optional(),
    can_use_mcp_servers: z.boolean().optional(),
    rag_retention_period_days: z
      .number()
      .int()
      .min(RAG_RETENTION_DAYS.min)
      .max(RAG_RETENTION_DAYS.max)
      .optional(),
    conversation_embedding_retention_days: z
      .number()
      .int()
      .min(EMBEDDING_RETENTION_DAYS.min)
      .max(EMBEDDING_RETENTION_DAYS.max)
      .nullable()
      .optional(),
    default_livekit_stack: z.enum(['standard', 'static']).optional(),
  })
  .strict();
export type PatchConvAiSettings = z.infer<typeof PatchConvAiSettings>;

export const getConvAiSettingsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/settings',
  summary: "The workspace's Conversational AI settings",
  tags: ['agents'],
  response: ConvAiSettings,
});

export const updateConvAiSettingsRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/settings',
  summary:
    "Changes the workspace's Conversational AI settings: the initiation webhook, the post-call webhook, retention",
  tags: ['agents'],
  body: PatchConvAiSettings,
  response: ConvAiSettings,
});

// ---------------------------------------------------------------------------------------------------
// The dashboard's charts

export const DashboardChart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call_success'), name: z.string().trim().min(1).max(100) }).strict(),
  z
    .object({
      type: z.literal('criteria'),
      name: z.string().trim().min(1).max(100),
      criteria_id: z.string().min(1).max(100),
    })
    .strict(),
  z
    .object({
      type: z.literal('data_collection'),
      name: z.string().trim().min(1).max(100),
      data_collection_id: z.string().min(1).max(100),
    })
    .strict(),
]);
export type DashboardChart = z.infer<typeof DashboardChart>;
export const MAX_DASHBOARD_CHARTS = 20;

export const DashboardSettings = z.object({ charts: z.array(DashboardChart) });
export type DashboardSettings = z.infer<typeof DashboardSettings>;

export const getDashboardSettingsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/settings/dashboard',
  summary: "The charts of the workspace's Conversational AI dashboard",
  tags: ['agents'],
  response: DashboardSettings,
});

export const updateDashboardSettingsRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/settings/dashboard',
  summary: "Sets the charts of the workspace's Conversational AI dashboard",
  tags: ['agents'],
  body: z.object({ charts: z.array(DashboardChart).max(MAX_DASHBOARD_CHARTS).optional() }).strict(),
  response: DashboardSettings,
});

// ---------------------------------------------------------------------------------------------------
// Analytics

const agentIdsQuery = z
  .union([z.string().min(1).max(64), z.array(z.string().min(1).max(64)).max(100)])
  .optional();

export const liveCountRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/analytics/live-count',
  summary: "The workspace's conversations in progress now (optionally of some agents)",
  tags: ['agents'],
  query: z.object({ agent_id: z.string().min(1).max(64).optional(), agent_ids: agentIdsQuery }),
  response: z.object({ count: z.number().int() }),
});

export const ANALYTICS_MAX_DAYS = 90;

/** Parla's own: the dashboard's series, per UTC day, and each configured chart's figures. */
export const ConvAiDailyAnalytics = z.object({
  days: z.array(
    z.object({
      /** YYYY-MM-DD, UTC. */
      date: z.string(),
      conversations: z.number().int(),
      /** Minutes charged (each started minute of connection, accounts §9). */
      minutes: z.number().int(),
    }),
  ),
  charts: z.array(
    z.object({
      type: z.enum(['call_success', 'criteria', 'data_collection']),
      name: z.string(),
      /** The criterion's or data point's id; null for call_success. */
      id: z.string().nullable(),
      /** Conversations with a post-call analysis (a language model must be configured). */
      analysed: z.number().int(),
      /** call_success and criteria: results by kind; data_collection: how many collected a value. */
      success: z.number().int(),
      failure: z.number().int(),
      unknown: z.number().int(),
      collected: z.number().int(),
    }),
  ),
});
export type ConvAiDailyAnalytics = z.infer<typeof ConvAiDailyAnalytics>;

export const dailyAnalyticsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/analytics/daily',
  summary:
    "Parla: the workspace's conversations and minutes per day, and its dashboard charts' figures, over the last days",
  tags: ['agents'],
  query: z.object({
    days: z.coerce.number().int().min(1).max(ANALYTICS_MAX_DAYS).default(14),
    agent_id: z.string().min(1).max(64).optional(),
  }),
  response: ConvAiDailyAnalytics,
});

// ---------------------------------------------------------------------------------------------------
// The users who talked to agents

export const ConversationUser = z.object({
  user_id: z.string(),
  last_contact_unix_secs: z.number().int(),
  first_contact_unix_secs: z.number().int(),
  conversation_count: z.number().int(),
  last_contact_agent_id: z.string().nullable(),
  last_contact_conversation_id: z.string(),
  last_contact_agent_name: z.string().nullable(),
  /** No sentiment is scored on this server: the counts are zero and the scores null. */
  sentiment: z.object({
    scored_conversation_count: z.number().int(),
    positive_count: z.number().int(),
    neutral_count: z.number().int(),
    negative_count: z.number().int(),
    average_sentiment_score: z.number().nullable(),
    average_frustration_score: z.number().nullable(),
    recent_scored_conversation_count: z.number().int(),
    recent_positive_count: z.number().int(),
    recent_neutral_count: z.number().int(),
    recent_negative_count: z.number().int(),
    recent_average_sentiment_score: z.number().nullable(),
    recent_average_frustration_score: z.number().nullable(),
  }),
  most_frustrated_conversations: z.array(z.unknown()),
});
export type ConversationUser = z.infer<typeof ConversationUser>;

export const ConversationUsersPage = z.object({
  users: z.array(ConversationUser),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});
export type ConversationUsersPage = z.infer<typeof ConversationUsersPage>;

export const listConversationUsersRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/users',
  summary:
    'The people who talked to the workspace’s agents (the user_id their client sent), with counts and last contact',
  tags: ['agents'],
  query: z.object({
    agent_id: z.string().min(1).max(64).optional(),
    branch_id: z.string().max(64).optional(),
    call_start_before_unix: z.coerce.number().int().min(0).optional(),
    call_start_after_unix: z.coerce.number().int().min(0).optional(),
    search: z.string().min(1).max(256).optional(),
    page_size: z.coerce.number().int().min(1).max(100).default(30),
    sort_by: z
      .enum(['last_contact_unix_secs', 'conversation_count', 'average_sentiment_score'])
      .default('last_contact_unix_secs'),
    sort_direction: z.enum(['asc', 'desc']).default('desc'),
    cursor: z.string().max(200).optional(),
  }),
  response: ConversationUsersPage,
});

// ---------------------------------------------------------------------------------------------------
// What the language model costs

export const LLM_USAGE_LIMITS = { maxPromptLength: 10_000_000, maxPages: 100_000 } as const;

export const LlmUsageResponse = z.object({
  llm_prices: z.array(
    z.object({
      llm: z.string(),
      /** USD a minute for the language model alone, as this server charges it: 0 (see `note`). */
      price_per_minute: z.number(),
      price_per_message: z.number(),
    }),
  ),
  /** Parla: how conversations are charged here, and what the figures mean. */
  note: z.string(),
  /** Parla: the workspace's plan: conversation minutes it includes and the price of a minute past them. */
  conversation_minutes: z.object({
    included_per_period: z.number().int(),
    extra_minute_usd: z.number().nullable(),
  }),
  /** Parla: the tokens one agent turn sends the model, estimated (4 characters a token). */
  estimated_prompt_tokens_per_message: z.number().int(),
});
export type LlmUsageResponse = z.infer<typeof LlmUsageResponse>;

const llmUsageNumbers = {
  prompt_length: z.number().int().min(0).max(LLM_USAGE_LIMITS.maxPromptLength),
  number_of_pages: z.number().int().min(0).max(LLM_USAGE_LIMITS.maxPages),
  rag_enabled: z.boolean(),
};

export const calculateLlmUsageRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/llm-usage/calculate',
  summary: "What the language model costs a minute on this server, for a prompt and knowledge base's size",
  tags: ['agents'],
  body: z.object(llmUsageNumbers).strict(),
  response: LlmUsageResponse,
});

export const calculateAgentLlmUsageRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/agent/:agent_id/llm-usage/calculate',
  summary:
    'What the language model costs a minute for one agent (its prompt and knowledge base unless the body says otherwise)',
  tags: ['agents'],
  params: z.object({ agent_id: z.string().min(1).max(64) }),
  body: z
    .object({
      prompt_length: llmUsageNumbers.prompt_length.optional(),
      number_of_pages: llmUsageNumbers.number_of_pages.optional(),
      rag_enabled: llmUsageNumbers.rag_enabled.optional(),
    })
    .strict(),
  response: LlmUsageResponse,
});
