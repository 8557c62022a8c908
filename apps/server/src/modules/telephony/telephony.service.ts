import { randomBytes } from 'node:crypto';
import {
  type CreatePhoneNumberRequest,
  type InboundSipTrunkConfig,
  type OutboundCallRequest,
  type OutboundSipTrunkConfig,
  type PhoneNumberResponse,
  SIP_TRUNK_UNSUPPORTED_MESSAGE,
  type UpdatePhoneNumberRequest,
} from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { openSecret, sealSecret, sha256Hex } from '../../platform/secrets';
import { agentDepsOf, requireAgent, sealingKeyOf } from '../agents';
import {
  deletePhoneNumberRow,
  findWorkspaceNumber,
  getWorkspacePhoneNumber,
  insertPhoneCall,
  insertPhoneNumber,
  listWorkspacePhoneNumbers,
  updatePhoneCall,
  updatePhoneNumberRow,
} from './telephony.store';
import type { PhoneNumberRow } from './telephony.tables';
import { connectStreamTwiml, createTwilioCall } from './twilio-rest';

/*
 * Phone numbers and calls (issue 28, history/voices §7): the SDK's phoneNumbers calls, Twilio outbound
 * calls and registered (inbound) calls. A call is a `phone_calls` row with a one-time token; the TwiML
 * Twilio runs connects the call to `/v1/convai/twilio/media-stream` with that token, and the stream opens
 * the conversation (twilio-media-stream.ts).
 */

/** The path Twilio's `<Stream>` connects to. */
export const MEDIA_STREAM_PATH = '/v1/convai/twilio/media-stream';
/** How long after a call is placed its stream may connect (ringing included). */
export const CALL_TOKEN_TTL_MS = 10 * 60 * 1000;
/** Phone numbers a workspace may import. */
export const MAX_PHONE_NUMBERS = 100;

const missing = () => notFound('The phone number');

/** The sealed SIP passwords: kept, never answered. */
function sealTrunk<T extends InboundSipTrunkConfig | OutboundSipTrunkConfig>(config: T, key: Buffer): T {
  const credentials = config.credentials;
  if (!credentials?.password) return config;
  return { ...config, credentials: { ...credentials, password: sealSecret(credentials.password, key) } };
}

async function agentInfo(deps: AppDeps, caller: RequestCaller, agentId: string | null) {
  if (!agentId) return null;
  try {
    const agent = await requireAgent(agentDepsOf(deps), caller, agentId);
    return { agent_id: agent.id, agent_name: agent.name };
  } catch {
    // The agent was deleted since: the number is unassigned.
    return null;
  }
}

export async function presentPhoneNumber(
  deps: AppDeps,
  caller: RequestCaller,
  row: PhoneNumberRow,
): Promise<PhoneNumberResponse> {
  const common = {
    phone_number: row.phoneNumber,
    label: row.label,
    supports_inbound: row.supportsInbound,
    supports_outbound: row.supportsOutbound,
    phone_number_id: row.id,
    assigned_agent: await agentInfo(deps, caller, row.agentId),
    created_at_unix_secs: Math.floor(row.createdAt.getTime() / 1000),
  };
  if (row.provider === 'twilio') return { provider: 'twilio', ...common };
  const outbound = row.outboundTrunk
    ? {
        address: row.outboundTrunk.address,
        transport: row.outboundTrunk.transport ?? ('auto' as const),
        media_encryption: row.outboundTrunk.media_encryption ?? ('allowed' as const),
        headers: row.outboundTrunk.headers ?? null,
        has_auth_credentials: Boolean(row.outboundTrunk.credentials),
        username: row.outboundTrunk.credentials?.username ?? null,
        has_outbound_trunk: true,
      }
    : null;
  return {
    provider: 'sip_trunk',
    ...common,
    provider_config: outbound,
    outbound_trunk: outbound,
    inbound_trunk: row.inboundTrunk
      ? {
          allowed_addresses: row.inboundTrunk.allowed_addresses ?? [],
          allowed_numbers: row.inboundTrunk.allowed_numbers ?? null,
          media_encryption: row.inboundTrunk.media_encryption ?? 'allowed',
          has_auth_credentials: Boolean(row.inboundTrunk.credentials),
          username: row.inboundTrunk.credentials?.username ?? null,
          remote_domains: row.inboundTrunk.remote_domains ?? null,
        }
      : null,
    livekit_stack: row.livekitStack,
    store_sip_messages: row.storeSipMessages,
  };
}

export async function createPhoneNumber(
  deps: AppDeps,
  caller: RequestCaller,
  body: CreatePhoneNumberRequest,
): Promise<{ phone_number_id: string }> {
  const db = deps.database.db;
  if (body.agent_id) await requireAgent(agentDepsOf(deps), caller, body.agent_id);
  if (await findWorkspaceNumber(db, caller.workspaceId, body.phone_number))
    throw new AppError(
      'conflict',
      `The workspace already has the phone number ${body.phone_number}; update it instead.`,
    );
  const existing = await listWorkspacePhoneNumbers(db, caller.workspaceId, {});
  if (existing.length >= MAX_PHONE_NUMBERS)
    throw new AppError('conflict', `A workspace may have at most ${MAX_PHONE_NUMBERS} phone numbers.`);
  const key = await sealingKeyOf(agentDepsOf(deps));
  const row = await insertPhoneNumber(db, {
    id: `phnum_${newId(24)}`,
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    provider: body.provider,
    phoneNumber: body.phone_number,
    label: body.label,
    supportsInbound: body.supports_inbound ?? true,
    supportsOutbound: body.supports_outbound ?? true,
    agentId: body.agent_id ?? null,
    ...(body.provider === 'twilio'
      ? { twilioAccountSid: body.sid, twilioTokenSealed: sealSecret(body.token, key) }
      : {
          inboundTrunk: body.inbound_trunk_config ? sealTrunk(body.inbound_trunk_config, key) : null,
          outboundTrunk: body.outbound_trunk_config ? sealTrunk(body.outbound_trunk_config, key) : null,
        }),
    createdAt: deps.clock.now(),
  });
  return { phone_number_id: row.id };
}

export async function listPhoneNumbers(
  deps: AppDeps,
  caller: RequestCaller,
  query: { provider?: string | undefined; agent_id?: string | undefined },
): Promise<PhoneNumberResponse[]> {
  const rows = await listWorkspacePhoneNumbers(deps.database.db, caller.workspaceId, {
    provider: query.provider,
    agentId: query.agent_id,
  });
  return Promise.all(rows.map((row) => presentPhoneNumber(deps, caller, row)));
}

export async function getPhoneNumber(deps: AppDeps, caller: RequestCaller, id: string) {
  const row = await getWorkspacePhoneNumber(deps.database.db, caller.workspaceId, id);
  if (!row) throw missing();
  return presentPhoneNumber(deps, caller, row);
}

export async function updatePhoneNumber(
  deps: AppDeps,
  caller: RequestCaller,
  id: string,
  body: UpdatePhoneNumberRequest,
) {
  const db = deps.database.db;
  const row = await getWorkspacePhoneNumber(db, caller.workspaceId, id);
  if (!row) throw missing();
  if (body.agent_id) await requireAgent(agentDepsOf(deps), caller, body.agent_id);
  const trunkChange =
    body.inbound_trunk_config !== undefined ||
    body.outbound_trunk_config !== undefined ||
    body.livekit_stack !== undefined ||
    body.store_sip_messages !== undefined;
  if (trunkChange && row.provider !== 'sip_trunk')
    throw new AppError(
      'bad_request',
      'Only a SIP trunk number has trunk settings; this one is a Twilio number.',
    );
  const key = trunkChange ? await sealingKeyOf(agentDepsOf(deps)) : undefined;
  const updated = await updatePhoneNumberRow(db, caller.workspaceId, id, {
    ...(body.agent_id !== undefined ? { agentId: body.agent_id } : {}),
    ...(body.label !== undefined ? { label: body.label } : {}),
    ...(body.inbound_trunk_config !== undefined && key
      ? { inboundTrunk: body.inbound_trunk_config ? sealTrunk(body.inbound_trunk_config, key) : null }
      : {}),
    ...(body.outbound_trunk_config !== undefined && key
      ? { outboundTrunk: body.outbound_trunk_config ? sealTrunk(body.outbound_trunk_config, key) : null }
      : {}),
    ...(body.livekit_stack !== undefined ? { livekitStack: body.livekit_stack } : {}),
    ...(body.store_sip_messages !== undefined ? { storeSipMessages: body.store_sip_messages } : {}),
  });
  if (!updated) throw missing();
  return presentPhoneNumber(deps, caller, updated);
}

export async function deletePhoneNumber(deps: AppDeps, caller: RequestCaller, id: string): Promise<void> {
  if (!(await deletePhoneNumberRow(deps.database.db, caller.workspaceId, id))) throw missing();
}

// ---- Calls ------------------------------------------------------------------------------------------

/** A new call's token (in the TwiML) and the row that waits for its stream. */
async function newCall(
  deps: AppDeps,
  input: {
    caller: RequestCaller;
    agentId: string;
    phoneNumberId: string | null;
    direction: 'inbound' | 'outbound';
    agentNumber: string;
    externalNumber: string;
    clientData: Record<string, unknown> | null | undefined;
  },
) {
  const token = `pct_${randomBytes(24).toString('hex')}`;
  const row = await insertPhoneCall(deps.database.db, {
    id: `call_${newId(24)}`,
    workspaceId: input.caller.workspaceId,
    userId: input.caller.userId,
    agentId: input.agentId,
    phoneNumberId: input.phoneNumberId,
    direction: input.direction,
    agentNumber: input.agentNumber,
    externalNumber: input.externalNumber,
    tokenHash: sha256Hex(token),
    clientData: input.clientData ?? null,
    status: 'queued',
    createdAt: deps.clock.now(),
  });
  return { row, token };
}

/** `wss://…/v1/convai/twilio/media-stream` as Twilio must reach it: PUBLIC_URL, else this request's host. */
export function mediaStreamUrl(deps: AppDeps, requestOrigin: string): string {
  const base = deps.config.publicUrlGuessed ? requestOrigin : deps.config.publicUrl;
  return `${base.replace(/^http/, 'ws').replace(/\/+$/, '')}${MEDIA_STREAM_PATH}`;
}

/**
 * Asks Twilio to dial `to_number` from the Twilio number, with TwiML that streams the answered call back
 * here; the call's row keeps the SID Twilio gave it (or why Twilio refused).
 */
export async function dialTwilio(
  deps: AppDeps,
  caller: RequestCaller,
  body: OutboundCallRequest,
  requestOrigin: string,
): Promise<{ callId: string; callSid: string }> {
  const db = deps.database.db;
  const agent = await requireAgent(agentDepsOf(deps), caller, body.agent_id);
  const number = await getWorkspacePhoneNumber(db, caller.workspaceId, body.agent_phone_number_id);
  if (!number) throw missing();
  if (number.provider !== 'twilio' || !number.twilioAccountSid || !number.twilioTokenSealed)
    throw new AppError(
      'bad_request',
      number.provider === 'sip_trunk'
        ? SIP_TRUNK_UNSUPPORTED_MESSAGE
        : 'This phone number is not a Twilio number; call with POST /v1/convai/twilio/outbound-call only from one.',
    );
  if (!number.supportsOutbound)
    throw new AppError('bad_request', `The phone number ${number.phoneNumber} is set to take calls only.`);
  const authToken = openSecret(number.twilioTokenSealed, await sealingKeyOf(agentDepsOf(deps)));
  const { row, token } = await newCall(deps, {
    caller,
    agentId: agent.id,
    phoneNumberId: number.id,
    direction: 'outbound',
    agentNumber: number.phoneNumber,
    externalNumber: body.to_number,
    clientData: body.conversation_initiation_client_data,
  });
  try {
    const { callSid } = await createTwilioCall({
      apiUrl: deps.config.agents.twilioApiUrl,
      accountSid: number.twilioAccountSid,
      authToken,
      to: body.to_number,
      from: number.phoneNumber,
      twiml: connectStreamTwiml(mediaStreamUrl(deps, requestOrigin), token),
      ringingTimeoutSecs: body.telephony_call_config?.ringing_timeout_secs ?? undefined,
      record:
        body.call_recording_enabled ?? body.telephony_call_config?.twilio_call_recording_enabled ?? undefined,
    });
    await updatePhoneCall(db, row.id, { callSid });
    return { callId: row.id, callSid };
  } catch (error) {
    await updatePhoneCall(db, row.id, {
      status: 'failed',
      error: error instanceof Error ? error.message.slice(0, 500) : 'failed',
    });
    throw error;
  }
}

export async function placeTwilioCall(
  deps: AppDeps,
  caller: RequestCaller,
  body: OutboundCallRequest,
  requestOrigin: string,
) {
  const { callSid } = await dialTwilio(deps, caller, body, requestOrigin);
  return {
    success: true,
    message: `Twilio is calling ${body.to_number}; the agent speaks once the call is answered.`,
    // The conversation opens when the callee answers and Twilio connects the stream.
    conversation_id: null,
    callSid,
  };
}

export async function registerTwilioCall(
  deps: AppDeps,
  caller: RequestCaller,
  body: {
    agent_id: string;
    from_number: string;
    to_number: string;
    direction?: 'inbound' | 'outbound' | null | undefined;
    conversation_initiation_client_data?: Record<string, unknown> | null | undefined;
  },
  requestOrigin: string,
): Promise<string> {
  const agent = await requireAgent(agentDepsOf(deps), caller, body.agent_id);
  const direction = body.direction ?? 'inbound';
  // The agent's side of the call is the number called on an inbound call, the caller on an outbound one.
  const agentNumber = direction === 'inbound' ? body.to_number : body.from_number;
  const externalNumber = direction === 'inbound' ? body.from_number : body.to_number;
  const number = await findWorkspaceNumber(deps.database.db, caller.workspaceId, agentNumber);
  const { token } = await newCall(deps, {
    caller,
    agentId: agent.id,
    phoneNumberId: number?.id ?? null,
    direction,
    agentNumber,
    externalNumber,
    clientData: body.conversation_initiation_client_data,
  });
  return connectStreamTwiml(mediaStreamUrl(deps, requestOrigin), token);
}
