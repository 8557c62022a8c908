import type {
  ConversationInitiationClientData,
  InboundSipTrunkConfig,
  OutboundSipTrunkConfig,
  TelephonyProvider,
} from '@parla/contracts';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A workspace's phone numbers (issue 28, history/voices §7): Twilio numbers with their account SID and the
 * auth token sealed (AES-256-GCM with the agents' secrets key, never answered), or SIP trunks with their
 * configuration (kept, though this server has no SIP stack to use it). `agentId` is the agent that takes
 * the number's calls; an agent deleted later leaves the number unassigned when it is read.
 */
export const phoneNumbers = pgTable(
  'phone_numbers',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    provider: text('provider').$type<TelephonyProvider>().notNull(),
    phoneNumber: text('phone_number').notNull(),
    label: text('label').notNull(),
    supportsInbound: boolean('supports_inbound').notNull().default(true),
    supportsOutbound: boolean('supports_outbound').notNull().default(true),
    agentId: text('agent_id'),
    twilioAccountSid: text('twilio_account_sid'),
    /** The Twilio auth token, sealed (`sealSecret`). */
    twilioTokenSealed: text('twilio_token_sealed'),
    /** SIP trunk configuration, its passwords sealed in place of their values. */
    inboundTrunk: jsonb('inbound_trunk').$type<InboundSipTrunkConfig>(),
    outboundTrunk: jsonb('outbound_trunk').$type<OutboundSipTrunkConfig>(),
    livekitStack: text('livekit_stack').$type<'standard' | 'static'>().notNull().default('standard'),
    storeSipMessages: boolean('store_sip_messages').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('phone_numbers_workspace_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('phone_numbers_workspace_number_idx').on(t.workspaceId, t.phoneNumber),
  ],
);
export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;

/**
 * Phone calls (outbound ones placed through Twilio, inbound ones registered): what the media stream needs
 * when Twilio connects it. The TwiML carries a one-time token (only its hash is kept here) as a stream
 * parameter; the stream that presents it opens the call's conversation, once, within CALL_TOKEN_TTL_MS.
 */
export const phoneCalls = pgTable(
  'phone_calls',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Who placed or registered it (the conversation is theirs, as with a signed URL). */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    agentId: text('agent_id').notNull(),
    /** The number it was placed from or arrived at; null for a registered call to a number not imported. */
    phoneNumberId: text('phone_number_id'),
    direction: text('direction').$type<'inbound' | 'outbound'>().notNull(),
    agentNumber: text('agent_number').notNull(),
    externalNumber: text('external_number').notNull(),
    tokenHash: text('token_hash').notNull(),
    clientData: jsonb('client_data').$type<Omit<ConversationInitiationClientData, 'type'>>(),
    /** Twilio's call SID (from its answer to the call request, or the stream's `start`). */
    callSid: text('call_sid'),
    streamSid: text('stream_sid'),
    conversationId: text('conversation_id'),
    /** queued (placed or registered), in_progress (its stream is open), completed, failed. */
    status: text('status').$type<'queued' | 'in_progress' | 'completed' | 'failed'>().notNull(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    streamedAt: timestamp('streamed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('phone_calls_token_idx').on(t.tokenHash),
    index('phone_calls_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);
export type PhoneCallRow = typeof phoneCalls.$inferSelect;

/**
 * Batch calls (issue 28, history/voices §7 "batch calling"): calls to many recipients from one Twilio
 * number, placed by the `telephony.batch-calls` job from `scheduledAt` on, at most `concurrency` at once
 * (never more than the plan's concurrent conversations). `streamOrigin` is the server's address as the
 * submitting request reached it (the media stream's host when PUBLIC_URL is unset).
 */
export const batchCalls = pgTable(
  'batch_calls',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    agentId: text('agent_id').notNull(),
    agentName: text('agent_name').notNull(),
    phoneNumberId: text('phone_number_id').notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    timezone: text('timezone'),
    /** pending until its calls are placed; cancelled by the user; completed once every call ended. */
    status: text('status')
      .$type<'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled'>()
      .notNull(),
    targetConcurrency: integer('target_concurrency'),
    ringingTimeoutSecs: integer('ringing_timeout_secs'),
    retryCount: integer('retry_count').notNull().default(0),
    streamOrigin: text('stream_origin').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('batch_calls_workspace_idx').on(t.workspaceId, t.createdAt),
    index('batch_calls_status_idx').on(t.status, t.scheduledAt),
  ],
);
export type BatchCallRow = typeof batchCalls.$inferSelect;

/**
 * One recipient of a batch: `pending` until its call is placed, then its call (`callId`) says how it went
 * (a call that never connects within CALL_TOKEN_TTL_MS counts as failed: nobody answered).
 */
export const batchCallRecipients = pgTable(
  'batch_call_recipients',
  {
    id: text('id').primaryKey(),
    batchId: text('batch_id')
      .notNull()
      .references(() => batchCalls.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    phoneNumber: text('phone_number').notNull(),
    clientData: jsonb('client_data').$type<Omit<ConversationInitiationClientData, 'type'>>(),
    /** pending, placed (Twilio took the call: its call row says the rest), failed, cancelled. */
    status: text('status').$type<'pending' | 'placed' | 'failed' | 'cancelled'>().notNull(),
    callId: text('call_id'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('batch_call_recipients_batch_idx').on(t.batchId, t.position)],
);
export type BatchCallRecipientRow = typeof batchCallRecipients.$inferSelect;
