import { z } from 'zod';
import { ConversationInitiationClientData } from './conversations';
import { defineRoute } from './routes';

/*
 * Phone numbers and calls of conversational agents (issue 28, history/voices §7 "phone numbers"): the
 * shapes of the official SDK's `conversationalAi.phoneNumbers`, `twilio` and `sipTrunk` calls, as they are
 * on the wire (snake_case). Twilio numbers carry their account SID and auth token (the token is kept
 * sealed and never answered); SIP trunk numbers keep their trunk configuration, but this server has no
 * SIP/RTP stack, so it cannot place or take their calls (said by the API and the page).
 */

/** E.164: a plus and up to 15 digits (Twilio's own rule for `To` and `From`). */
export const E164 = /^\+[1-9]\d{6,14}$/;
export const PHONE_NUMBER_RULE = 'a phone number in E.164 form, e.g. +14155550123';

const phoneNumber = z.string().trim().regex(E164, `must be ${PHONE_NUMBER_RULE}`);

/** What a phone call's conversation starts with (the SDK's `conversation_initiation_client_data`). */
const CallClientData = ConversationInitiationClientData.omit({ type: true }).passthrough().nullish();

export const TELEPHONY_PROVIDERS = ['twilio', 'sip_trunk'] as const;
export type TelephonyProvider = (typeof TELEPHONY_PROVIDERS)[number];

/** Why a SIP trunk cannot carry a call here (the API's error and the page say the same). */
export const SIP_TRUNK_UNSUPPORTED_MESSAGE =
  'This server has no SIP/RTP media stack, so it cannot place or answer calls over a SIP trunk; its configuration is kept. Import a Twilio number to call out.';

const SipCredentials = z.object({
  username: z.string().trim().min(1).max(256),
  password: z.string().max(256).nullish(),
});
const SipMediaEncryption = z.enum(['disabled', 'allowed', 'required']);

export const InboundSipTrunkConfig = z.object({
  allowed_addresses: z.array(z.string().trim().min(1).max(256)).max(50).nullish(),
  allowed_numbers: z.array(phoneNumber).max(50).nullish(),
  media_encryption: SipMediaEncryption.nullish(),
  credentials: SipCredentials.nullish(),
  remote_domains: z.array(z.string().trim().min(1).max(256)).max(50).nullish(),
  attributes_to_headers: z.record(z.string().max(128), z.string().max(256)).nullish(),
});
export type InboundSipTrunkConfig = z.infer<typeof InboundSipTrunkConfig>;

export const OutboundSipTrunkConfig = z.object({
  address: z.string().trim().min(1).max(256),
  transport: z.enum(['auto', 'udp', 'tcp', 'tls']).nullish(),
  media_encryption: SipMediaEncryption.nullish(),
  headers: z.record(z.string().max(128), z.string().max(256)).nullish(),
  attributes_to_headers: z.record(z.string().max(128), z.string().max(256)).nullish(),
  credentials: SipCredentials.nullish(),
  enabled_codecs: z.array(z.string().max(32)).max(10).nullish(),
});
export type OutboundSipTrunkConfig = z.infer<typeof OutboundSipTrunkConfig>;

const common = {
  phone_number: phoneNumber,
  label: z.string().trim().min(1, 'must not be empty').max(100),
  supports_inbound: z.boolean().nullish(),
  supports_outbound: z.boolean().nullish(),
  agent_id: z.string().min(1).max(64).nullish(),
};

export const CreatePhoneNumberRequest = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('twilio'),
    ...common,
    /** The Twilio account SID (AC…). */
    sid: z
      .string()
      .trim()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID: AC and 32 hexadecimal digits'),
    /** The account's auth token: sealed at rest, never answered. */
    token: z.string().trim().min(8, 'must be the account’s auth token').max(128),
    account_auth_token: z.string().max(128).nullish(),
    region_config: z.record(z.string(), z.unknown()).nullish(),
    enable_sms: z.boolean().nullish(),
  }),
  z.object({
    provider: z.literal('sip_trunk'),
    ...common,
    inbound_trunk_config: InboundSipTrunkConfig.nullish(),
    outbound_trunk_config: OutboundSipTrunkConfig.nullish(),
  }),
]);
export type CreatePhoneNumberRequest = z.infer<typeof CreatePhoneNumberRequest>;

export const UpdatePhoneNumberRequest = z.object({
  /** null unassigns the number's agent. */
  agent_id: z.string().min(1).max(64).nullish(),
  label: z.string().trim().min(1, 'must not be empty').max(100).optional(),
  inbound_trunk_config: InboundSipTrunkConfig.nullish(),
  outbound_trunk_config: OutboundSipTrunkConfig.nullish(),
  livekit_stack: z.enum(['standard', 'static']).optional(),
  store_sip_messages: z.boolean().optional(),
});
export type UpdatePhoneNumberRequest = z.infer<typeof UpdatePhoneNumberRequest>;

const AssignedAgent = z.object({ agent_id: z.string(), agent_name: z.string() }).nullable();

const OutboundTrunkResponse = z.object({
  address: z.string(),
  transport: z.enum(['auto', 'udp', 'tcp', 'tls']),
  media_encryption: SipMediaEncryption,
  headers: z.record(z.string(), z.string()).nullable(),
  has_auth_credentials: z.boolean(),
  username: z.string().nullable(),
  has_outbound_trunk: z.boolean(),
});
const InboundTrunkResponse = z.object({
  allowed_addresses: z.array(z.string()),
  allowed_numbers: z.array(z.string()).nullable(),
  media_encryption: SipMediaEncryption,
  has_auth_credentials: z.boolean(),
  username: z.string().nullable(),
  remote_domains: z.array(z.string()).nullable(),
});

const responseCommon = {
  phone_number: z.string(),
  label: z.string(),
  supports_inbound: z.boolean(),
  supports_outbound: z.boolean(),
  phone_number_id: z.string(),
  assigned_agent: AssignedAgent,
  /** Parla: seconds since the epoch when it was imported. */
  created_at_unix_secs: z.number().int(),
};

export const PhoneNumberResponse = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('twilio'), ...responseCommon }),
  z.object({
    provider: z.literal('sip_trunk'),
    ...responseCommon,
    provider_config: OutboundTrunkResponse.nullable(),
    outbound_trunk: OutboundTrunkResponse.nullable(),
    inbound_trunk: InboundTrunkResponse.nullable(),
    livekit_stack: z.enum(['standard', 'static']),
    store_sip_messages: z.boolean(),
  }),
]);
export type PhoneNumberResponse = z.infer<typeof PhoneNumberResponse>;

const phoneNumberParams = z.object({ phone_number_id: z.string().min(1).max(64) });

export const listPhoneNumbersRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/phone-numbers',
  summary: "The workspace's phone numbers (Twilio and SIP trunk), newest first",
  tags: ['agents'],
  query: z.object({
    provider: z.enum(TELEPHONY_PROVIDERS).optional(),
    agent_id: z.string().max(64).optional(),
  }),
  response: z.array(PhoneNumberResponse),
});

export const createPhoneNumberRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/phone-numbers',
  summary: 'Imports a phone number: a Twilio number with its account SID and auth token, or a SIP trunk',
  tags: ['agents'],
  body: CreatePhoneNumberRequest,
  response: z.object({ phone_number_id: z.string() }),
});

export const getPhoneNumberRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/phone-numbers/:phone_number_id',
  summary: 'One phone number (its Twilio token is never answered)',
  tags: ['agents'],
  params: phoneNumberParams,
  response: PhoneNumberResponse,
});

export const updatePhoneNumberRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/phone-numbers/:phone_number_id',
  summary: 'Assigns an agent to a phone number (null: none), renames it, or changes its SIP trunk',
  tags: ['agents'],
  params: phoneNumberParams,
  body: UpdatePhoneNumberRequest,
  response: PhoneNumberResponse,
});

export const deletePhoneNumberRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/phone-numbers/:phone_number_id',
  summary: 'Deletes a phone number (its sealed token with it)',
  tags: ['agents'],
  params: phoneNumberParams,
  response: z.object({}),
});

// ---------------------------------------------------------------------------------------------------
// Calls

export const TelephonyCallConfig = z.object({
  ringing_timeout_secs: z.number().int().min(5).max(600).nullish(),
  twilio_call_recording_enabled: z.boolean().nullish(),
  twilio_machine_detection: z.record(z.string(), z.unknown()).nullish(),
});

export const OutboundCallRequest = z.object({
  agent_id: z.string().min(1).max(64),
  agent_phone_number_id: z.string().min(1).max(64),
  to_number: phoneNumber,
  conversation_initiation_client_data: CallClientData,
  call_recording_enabled: z.boolean().nullish(),
  telephony_call_config: TelephonyCallConfig.nullish(),
});
export type OutboundCallRequest = z.infer<typeof OutboundCallRequest>;

export const twilioOutboundCallRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/twilio/outbound-call',
  summary:
    "Calls a number from a Twilio phone number: Twilio dials it and streams the call to the agent (the conversation's id comes once the callee answers)",
  tags: ['agents'],
  body: OutboundCallRequest,
  response: z.object({
    success: z.boolean(),
    message: z.string(),
    conversation_id: z.string().nullable(),
    callSid: z.string().nullable(),
  }),
});

export const twilioRegisterCallRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/twilio/register-call',
  summary:
    'Registers a call your own Twilio webhook received and answers the TwiML that connects it to the agent',
  tags: ['agents'],
  body: z.object({
    agent_id: z.string().min(1).max(64),
    from_number: phoneNumber,
    to_number: phoneNumber,
    direction: z.enum(['inbound', 'outbound']).nullish(),
    conversation_initiation_client_data: CallClientData,
  }),
  response: z.any().meta({ description: 'TwiML (text/xml): <Connect><Stream> to this server' }),
});

export const sipTrunkOutboundCallRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/sip-trunk/outbound-call',
  summary: 'Calls over a SIP trunk (refused: this server has no SIP/RTP media stack)',
  tags: ['agents'],
  body: z
    .object({
      agent_id: z.string().min(1).max(64),
      agent_phone_number_id: z.string().min(1).max(64),
      to_number: phoneNumber,
    })
    .passthrough(),
  response: z.object({
    success: z.boolean(),
    message: z.string(),
    conversation_id: z.string().nullable(),
    sip_call_id: z.string().nullable(),
  }),
});

// ---------------------------------------------------------------------------------------------------
// Batch calling

export const BATCH_CALL_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export const BATCH_RECIPIENT_STATUSES = [
  'pending',
  'dispatched',
  'initiated',
  'in_progress',
  'completed',
  'failed',
  'cancelled',
  'voicemail',
] as const;
export type BatchRecipientStatus = (typeof BATCH_RECIPIENT_STATUSES)[number];
/** Recipients in one batch (a CSV of a few thousand numbers). */
export const MAX_BATCH_RECIPIENTS = 5_000;

export const SubmitBatchCallRequest = z.object({
  call_name: z.string().trim().min(1, 'must not be empty').max(200),
  agent_id: z.string().min(1).max(64),
  recipients: z
    .array(
      z.object({
        id: z.string().max(64).nullish(),
        phone_number: phoneNumber,
        conversation_initiation_client_data: CallClientData,
      }),
    )
    .min(1, 'must name at least one recipient')
    .max(MAX_BATCH_RECIPIENTS, `may name at most ${MAX_BATCH_RECIPIENTS} recipients`),
  /** When to start (seconds since the epoch); unset or past: at once. */
  scheduled_time_unix: z.number().int().min(0).nullish(),
  agent_phone_number_id: z.string().min(1).max(64),
  timezone: z.string().max(64).nullish(),
  telephony_call_config: TelephonyCallConfig.nullish(),
  /** At most this many calls at once (never more than the plan's concurrent conversations). */
  target_concurrency_limit: z.number().int().min(1).max(1000).nullish(),
});
export type SubmitBatchCallRequest = z.infer<typeof SubmitBatchCallRequest>;

export const BatchCallResponse = z.object({
  id: z.string(),
  phone_number_id: z.string().nullable(),
  phone_provider: z.enum(TELEPHONY_PROVIDERS).nullable(),
  name: z.string(),
  agent_id: z.string(),
  agent_name: z.string(),
  created_at_unix: z.number().int(),
  scheduled_time_unix: z.number().int(),
  timezone: z.string().nullable(),
  total_calls_dispatched: z.number().int(),
  total_calls_scheduled: z.number().int(),
  total_calls_finished: z.number().int(),
  last_updated_at_unix: z.number().int(),
  status: z.enum(BATCH_CALL_STATUSES),
  retry_count: z.number().int(),
  telephony_call_config: z.object({ ringing_timeout_secs: z.number().int().nullable() }),
  target_concurrency_limit: z.number().int().nullable(),
});
export type BatchCallResponse = z.infer<typeof BatchCallResponse>;

export const BatchCallRecipientResponse = z.object({
  id: z.string(),
  phone_number: z.string(),
  status: z.enum(BATCH_RECIPIENT_STATUSES),
  created_at_unix: z.number().int(),
  updated_at_unix: z.number().int(),
  conversation_id: z.string().nullable(),
  /** Parla: why the call failed, when it did. */
  error: z.string().nullable(),
  conversation_initiation_client_data: z.record(z.string(), z.unknown()).nullable(),
});

export const BatchCallDetailedResponse = BatchCallResponse.extend({
  recipients: z.array(BatchCallRecipientResponse),
});
export type BatchCallDetailedResponse = z.infer<typeof BatchCallDetailedResponse>;

const batchParams = z.object({ batch_id: z.string().min(1).max(64) });

export const submitBatchCallRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/batch-calling/submit',
  summary:
    'Schedules calls to many recipients from a Twilio phone number, placed at the scheduled time a few at a time',
  tags: ['agents'],
  body: SubmitBatchCallRequest,
  response: BatchCallResponse,
});

export const listBatchCallsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/batch-calling/workspace',
  summary: "The workspace's batch calls, newest first",
  tags: ['agents'],
  query: z.object({
    limit: z.coerce.number().int().min(1).max(100).default(100),
    last_doc: z.string().max(64).optional(),
  }),
  response: z.object({
    batch_calls: z.array(BatchCallResponse),
    next_doc: z.string().nullable(),
    has_more: z.boolean(),
  }),
});

export const getBatchCallRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/batch-calling/:batch_id',
  summary: 'One batch call with each recipient’s status',
  tags: ['agents'],
  params: batchParams,
  response: BatchCallDetailedResponse,
});

export const cancelBatchCallRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/batch-calling/:batch_id/cancel',
  summary: 'Cancels the calls of a batch not placed yet (calls in progress go on)',
  tags: ['agents'],
  params: batchParams,
  response: BatchCallResponse,
});

export const retryBatchCallRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/batch-calling/:batch_id/retry',
  summary: 'Places again the calls of a batch that failed or were cancelled',
  tags: ['agents'],
  params: batchParams,
  response: BatchCallResponse,
});

export const deleteBatchCallRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/batch-calling/:batch_id',
  summary: 'Deletes a batch call (its calls in progress go on; those not placed are not)',
  tags: ['agents'],
  params: batchParams,
  response: z.object({}),
});
