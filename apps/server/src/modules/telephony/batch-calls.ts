import {
  type BatchCallDetailedResponse,
  type BatchCallResponse,
  type BatchRecipientStatus,
  SIP_TRUNK_UNSUPPORTED_MESSAGE,
  type SubmitBatchCallRequest,
  tierLimits,
} from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { agentDepsOf, requireAgent } from '../agents';
import { CALL_TOKEN_TTL_MS, dialTwilio } from './telephony.service';
import {
  deleteBatchRow,
  dueBatches,
  getWorkspaceBatch,
  getWorkspacePhoneNumber,
  insertBatch,
  listWorkspaceBatches,
  moveRecipients,
  type RecipientWithCall,
  recipientsOf,
  updateBatch,
  updateRecipient,
  workspaceTier,
} from './telephony.store';
import type { BatchCallRow } from './telephony.tables';

/*
 * Batch calling (issue 28, history/voices §7): the SDK's `conversationalAi.batchCalls` calls, and the job
 * that places a batch's calls through Twilio (dialTwilio, as one outbound call) from its scheduled time,
 * at most min(target_concurrency_limit, the plan's concurrent conversations) at once (accounts §9: 4, 6,
 * 10, 20, 30, 30), each recipient's status following its call.
 */

const missing = () => notFound('The batch call');

/** A recipient's status as the public API names it, from its row and its call's. */
export function recipientStatus(recipient: RecipientWithCall, now: Date): BatchRecipientStatus {
  if (recipient.status !== 'placed') return recipient.status;
  const call = recipient.call;
  if (!call) return 'dispatched';
  switch (call.status) {
    case 'queued':
      // Placed, never answered within the token's life: nobody picked up.
      return now.getTime() - call.createdAt.getTime() > CALL_TOKEN_TTL_MS ? 'failed' : 'initiated';
    case 'in_progress':
      return 'in_progress';
    case 'completed':
      return 'completed';
    default:
      return 'failed';
  }
}

const ACTIVE = new Set<BatchRecipientStatus>(['dispatched', 'initiated', 'in_progress']);
const FINISHED = new Set<BatchRecipientStatus>(['completed', 'failed', 'cancelled', 'voicemail']);

function present(row: BatchCallRow, recipients: RecipientWithCall[], now: Date): BatchCallResponse {
  const statuses = recipients.map((r) => recipientStatus(r, now));
  return {
    id: row.id,
    phone_number_id: row.phoneNumberId,
    phone_provider: 'twilio',
    name: row.name,
    agent_id: row.agentId,
    agent_name: row.agentName,
    created_at_unix: Math.floor(row.createdAt.getTime() / 1000),
    scheduled_time_unix: Math.floor(row.scheduledAt.getTime() / 1000),
    timezone: row.timezone,
    total_calls_dispatched: statuses.filter((s) => s !== 'pending' && s !== 'cancelled').length,
    total_calls_scheduled: recipients.length,
    total_calls_finished: statuses.filter((s) => FINISHED.has(s)).length,
    last_updated_at_unix: Math.floor(row.updatedAt.getTime() / 1000),
    status: row.status,
    retry_count: row.retryCount,
    telephony_call_config: { ringing_timeout_secs: row.ringingTimeoutSecs },
    target_concurrency_limit: row.targetConcurrency,
  };
}

function detail(row: BatchCallRow, recipients: RecipientWithCall[], now: Date): BatchCallDetailedResponse {
  return {
    ...present(row, recipients, now),
    recipients: recipients.map((r) => ({
      id: r.id,
      phone_number: r.phoneNumber,
      status: recipientStatus(r, now),
      created_at_unix: Math.floor(r.createdAt.getTime() / 1000),
      updated_at_unix: Math.floor(r.updatedAt.getTime() / 1000),
      conversation_id: r.call?.conversationId ?? null,
      error: r.error ?? r.call?.error ?? null,
      conversation_initiation_client_data: r.clientData ?? null,
    })),
  };
}

export async function submitBatchCall(
  deps: AppDeps,
  caller: RequestCaller,
  body: SubmitBatchCallRequest,
  requestOrigin: string,
): Promise<BatchCallResponse> {
  const db = deps.database.db;
  const agent = await requireAgent(agentDepsOf(deps), caller, body.agent_id);
  const number = await getWorkspacePhoneNumber(db, caller.workspaceId, body.agent_phone_number_id);
  if (!number) throw notFound('The phone number');
  if (number.provider !== 'twilio')
    throw new AppError(
      'bad_request',
      number.provider === 'sip_trunk'
        ? SIP_TRUNK_UNSUPPORTED_MESSAGE
        : 'Batch calls go out from a Twilio number.',
    );
  if (!number.supportsOutbound)
    throw new AppError('bad_request', `The phone number ${number.phoneNumber} is set to take calls only.`);
  const seen = new Set<string>();
  for (const recipient of body.recipients) {
    if (seen.has(recipient.phone_number))
      throw new AppError(
        'invalid_request',
        `recipients: ${recipient.phone_number} is listed twice; each number is called once.`,
      );
    seen.add(recipient.phone_number);
  }
  const now = deps.clock.now();
  const scheduled = body.scheduled_time_unix ? new Date(body.scheduled_time_unix * 1000) : now;
  const id = `btcal_${newId(24)}`;
  const row = await insertBatch(
    db,
    {
      id,
      workspaceId: caller.workspaceId,
      createdBy: caller.userId,
      name: body.call_name,
      agentId: agent.id,
      agentName: agent.name,
      phoneNumberId: number.id,
      scheduledAt: scheduled.getTime() < now.getTime() ? now : scheduled,
      timezone: body.timezone ?? null,
      status: 'pending',
      targetConcurrency: body.target_concurrency_limit ?? null,
      ringingTimeoutSecs: body.telephony_call_config?.ringing_timeout_secs ?? null,
      streamOrigin: requestOrigin,
      createdAt: now,
      updatedAt: now,
    },
    body.recipients.map((recipient, position) => ({
      id: recipient.id?.trim() ? `${id}_${recipient.id.trim().slice(0, 64)}` : `btrcp_${newId(24)}`,
      batchId: id,
      position,
      phoneNumber: recipient.phone_number,
      clientData: recipient.conversation_initiation_client_data ?? null,
      status: 'pending' as const,
      createdAt: now,
      updatedAt: now,
    })),
  );
  return present(row, await recipientsOf(db, [row.id]), now);
}

export async function listBatchCalls(
  deps: AppDeps,
  caller: RequestCaller,
  query: { limit: number; last_doc?: string | undefined },
) {
  const db = deps.database.db;
  const after = query.last_doc ? await getWorkspaceBatch(db, caller.workspaceId, query.last_doc) : undefined;
  if (query.last_doc && !after)
    throw new AppError('invalid_request', 'last_doc is not a batch call of this workspace.');
  const rows = await listWorkspaceBatches(db, caller.workspaceId, query.limit, after);
  const page = rows.slice(0, query.limit);
  const recipients = await recipientsOf(
    db,
    page.map((row) => row.id),
  );
  const now = deps.clock.now();
  return {
    batch_calls: page.map((row) =>
      present(
        row,
        recipients.filter((r) => r.batchId === row.id),
        now,
      ),
    ),
    next_doc: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
    has_more: rows.length > query.limit,
  };
}

async function requireBatch(deps: AppDeps, caller: RequestCaller, id: string): Promise<BatchCallRow> {
  const row = await getWorkspaceBatch(deps.database.db, caller.workspaceId, id);
  if (!row) throw missing();
  return row;
}

export async function getBatchCall(deps: AppDeps, caller: RequestCaller, id: string) {
  const row = await requireBatch(deps, caller, id);
  return detail(row, await recipientsOf(deps.database.db, [row.id]), deps.clock.now());
}

export async function cancelBatchCall(deps: AppDeps, caller: RequestCaller, id: string) {
  const db = deps.database.db;
  const row = await requireBatch(deps, caller, id);
  if (row.status === 'completed' || row.status === 'cancelled')
    throw new AppError('conflict', `The batch call is already ${row.status}; there is nothing to cancel.`);
  const now = deps.clock.now();
  await moveRecipients(db, row.id, ['pending'], 'cancelled', now);
  const updated = (await updateBatch(db, row.id, { status: 'cancelled', updatedAt: now })) ?? row;
  return present(updated, await recipientsOf(db, [row.id]), now);
}

export async function retryBatchCall(deps: AppDeps, caller: RequestCaller, id: string) {
  const db = deps.database.db;
  const row = await requireBatch(deps, caller, id);
  const now = deps.clock.now();
  // Failed ones (Twilio refused, nobody answered) and cancelled ones are placed again.
  const recipients = await recipientsOf(db, [row.id]);
  let again = 0;
  for (const recipient of recipients) {
    const status = recipientStatus(recipient, now);
    if (status !== 'failed' && status !== 'cancelled') continue;
    await updateRecipient(db, recipient.id, { status: 'pending', callId: null, error: null, updatedAt: now });
    again += 1;
  }
  if (again === 0)
    throw new AppError(
      'conflict',
      'No call of this batch failed or was cancelled; there is nothing to retry.',
    );
  const updated =
    (await updateBatch(db, row.id, {
      status: 'pending',
      retryCount: row.retryCount + 1,
      scheduledAt: now,
      updatedAt: now,
    })) ?? row;
  return present(updated, await recipientsOf(db, [row.id]), now);
}

export async function deleteBatchCall(deps: AppDeps, caller: RequestCaller, id: string): Promise<void> {
  if (!(await deleteBatchRow(deps.database.db, caller.workspaceId, id))) throw missing();
}

/**
 * One pass of the batch-calls job: for each batch whose time has come, as many pending recipients are
 * called as its concurrency allows (calls ringing or in progress count), and a batch whose calls have all
 * ended is completed. Returns the calls placed.
 */
export async function dispatchBatchCalls(deps: AppDeps): Promise<number> {
  const db = deps.database.db;
  let placed = 0;
  for (const batch of await dueBatches(db, deps.clock.now())) {
    const now = deps.clock.now();
    const recipients = await recipientsOf(db, [batch.id]);
    const statuses = recipients.map((r) => recipientStatus(r, now));
    const planLimit =
      tierLimits[(await workspaceTier(db, batch.workspaceId)) ?? 'free'].conversationalConcurrency;
    const limit = Math.min(batch.targetConcurrency ?? planLimit, planLimit);
    let active = statuses.filter((s) => ACTIVE.has(s)).length;
    const pending = recipients.filter((r) => r.status === 'pending');
    if (pending.length === 0 && active === 0) {
      const anyCompleted = statuses.some((s) => s === 'completed');
      await updateBatch(db, batch.id, { status: anyCompleted ? 'completed' : 'failed', updatedAt: now });
      continue;
    }
    if (batch.status === 'pending')
      await updateBatch(db, batch.id, { status: 'in_progress', updatedAt: now });
    if (!batch.createdBy) {
      await moveRecipients(db, batch.id, ['pending'], 'failed', now);
      continue;
    }
    const caller = {
      userId: batch.createdBy,
      workspaceId: batch.workspaceId,
      requestId: `batch:${batch.id}`,
    };
    for (const recipient of pending) {
      if (active >= limit) break;
      try {
        const { callId } = await dialTwilio(
          deps,
          caller,
          {
            agent_id: batch.agentId,
            agent_phone_number_id: batch.phoneNumberId,
            to_number: recipient.phoneNumber,
            conversation_initiation_client_data: recipient.clientData,
            telephony_call_config: { ringing_timeout_secs: batch.ringingTimeoutSecs },
          },
          batch.streamOrigin,
        );
        await updateRecipient(db, recipient.id, { status: 'placed', callId, updatedAt: deps.clock.now() });
        active += 1;
        placed += 1;
      } catch (error) {
        // This recipient's call was refused (a number Twilio will not dial, the agent deleted…): the rest go on.
        await updateRecipient(db, recipient.id, {
          status: 'failed',
          error: error instanceof Error ? error.message.slice(0, 500) : 'The call was not placed.',
          updatedAt: deps.clock.now(),
        });
      }
    }
  }
  return placed;
}
