import type {
  ConversationAnalysis,
  ConversationPhoneCall,
  ConversationStatus,
  ConversationTranscriptTurn,
  DashboardChart,
  ResponseMode,
} from '@parla/contracts';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * Conversations with agents (issue 28 item 5): one row per socket that opened one, from `in-progress` to
 * `done` (or `failed`), with its transcript, its recording's key and the minutes charged. The agent is
 * kept by id and name (an agent deleted later leaves its conversations readable). `heartbeatAt` is renewed
 * while the socket is open: a conversation whose process died stops counting against the plan's
 * concurrent conversations once it is stale (CONVERSATION_HEARTBEAT_STALE_MS).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').notNull(),
    agentName: text('agent_name'),
    /** The user who opened it with a key or a signed URL; null for a public agent's visitor. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** `user_id` the client passed in its initiation data (its own id for the person). */
    clientUserId: text('client_user_id'),
    status: text('status').$type<ConversationStatus>().notNull(),
    authorizationMethod: text('authorization_method')
      .$type<'public' | 'signed_url' | 'authorization_header'>()
      .notNull(),
    responseMode: text('response_mode').$type<ResponseMode>().notNull(),
    responseModeReason: text('response_mode_reason'),
    textOnly: boolean('text_only').notNull().default(false),
    language: text('language'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    durationSecs: integer('duration_secs').notNull().default(0),
    /** Minutes charged: each started minute of connection (accounts §9). */
    minutesCharged: integer('minutes_charged').notNull().default(0),
    terminationReason: text('termination_reason'),
    errorCode: integer('error_code'),
    transcript: jsonb('transcript').$type<ConversationTranscriptTurn[]>().notNull().default([]),
    initiationData: jsonb('initiation_data').$type<Record<string, unknown>>(),
    /** The phone call it came over (the telephony module tells, through the front door). */
    phoneCall: jsonb('phone_call').$type<ConversationPhoneCall>(),
    /** Post-call analysis through the language model, when the agent asks for one and a model is there. */
    analysis: jsonb('analysis').$type<ConversationAnalysis>(),
    /** The recording (MP3, both sides), when the agent records audio. */
    audioKey: text('audio_key'),
    hasUserAudio: boolean('has_user_audio').notNull().default(false),
    hasResponseAudio: boolean('has_response_audio').notNull().default(false),
    feedback: text('feedback').$type<'like' | 'dislike'>(),
    rating: integer('rating'),
    feedbackComment: text('feedback_comment'),
    /** Deleted with its recording once this passes (the agent's retention setting), null: kept. */
    deleteAfter: timestamp('delete_after', { withTimezone: true }),
  },
  (t) => [
    index('conversations_workspace_started_idx').on(t.workspaceId, t.startedAt),
    index('conversations_agent_idx').on(t.agentId),
    index('conversations_delete_after_idx').on(t.deleteAfter),
  ],
);

export type ConversationRow = typeof conversations.$inferSelect;

/**
 * Signed URLs (`GET /v1/convai/conversation/get-signed-url`): a signature opens one conversation with one
 * agent, once, within CONVERSATION_LIMITS.signedUrlTtlMs; only its hash is kept.
 */
export const conversationSignatures = pgTable('conversation_signatures', {
  signatureHash: text('signature_hash').primaryKey(),
  agentId: text('agent_id').notNull(),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * A workspace's conversation minutes in its current credit period (accounts §9): started from zero when
 * its credits start afresh (`credits.period_started`); `extraMinutes` are those past the plan's minutes,
 * on plans that sell extra minutes.
 */
export const conversationMinutes = pgTable('conversation_minutes', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  minutesUsed: integer('minutes_used').notNull().default(0),
  extraMinutes: integer('extra_minutes').notNull().default(0),
});

/**
 * A workspace's Conversational AI settings (`/v1/convai/settings`, `/v1/convai/settings/dashboard`): one
 * row once anything was set; none means the defaults. The initiation webhook's secret headers are kept as
 * `{secret_id}` (the agents module's sealed secrets), never as their values.
 */
export const convaiSettings = pgTable('convai_settings', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  initiationWebhook: jsonb('initiation_webhook').$type<{
    url: string;
    request_headers: Record<string, string | { secret_id: string }>;
  }>(),
  /** The webhook that receives post-call events; null: every webhook subscribed to them. */
  postCallWebhookId: text('post_call_webhook_id'),
  /** The other `webhooks` options, kept as given (see the settings' notes for what each does here). */
  webhookOptions: jsonb('webhook_options').$type<Record<string, unknown>>().notNull().default({}),
  canUseMcpServers: boolean('can_use_mcp_servers').notNull().default(false),
  ragRetentionPeriodDays: integer('rag_retention_period_days'),
  conversationEmbeddingRetentionDays: integer('conversation_embedding_retention_days'),
  defaultLivekitStack: text('default_livekit_stack').$type<'standard' | 'static'>(),
  dashboardCharts: jsonb('dashboard_charts').$type<DashboardChart[]>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ConvaiSettingsRow = typeof convaiSettings.$inferSelect;
