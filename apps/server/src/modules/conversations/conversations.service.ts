import type { ConversationDetail, ConversationSummary } from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import type { Storage } from '../../platform/storage/storage';
import {
  deleteConversationRow,
  expiredConversations,
  findConversation,
  findConversationById,
  listConversations,
  updateConversation,
} from './conversations.store';
import type { ConversationRow } from './conversations.tables';

/** Conversations kept (issue 28 item 5): list, one, its recording, delete, feedback. */

export interface ConversationsDeps {
  db: Db;
  storage: Storage;
}

const missing = () => notFound('The conversation');

function summaryOf(row: ConversationRow): ConversationSummary {
  const tools = new Set<string>();
  for (const turn of row.transcript) for (const call of turn.tool_calls) tools.add(call.tool_name);
  return {
    agent_id: row.agentId,
    agent_name: row.agentName,
    conversation_id: row.id,
    start_time_unix_secs: Math.floor(row.startedAt.getTime() / 1000),
    call_duration_secs: row.durationSecs,
    message_count: row.transcript.length,
    status: row.status,
    termination_reason: row.terminationReason,
    call_successful: row.analysis?.call_successful ?? 'unknown',
    transcript_summary: row.analysis?.transcript_summary || null,
    call_summary_title: null,
    main_language: row.language,
    tool_names: [...tools],
    rating: row.rating,
  };
}

export function detailOf(row: ConversationRow): ConversationDetail {
  return {
    agent_id: row.agentId,
    agent_name: row.agentName,
    conversation_id: row.id,
    status: row.status,
    user_id: row.clientUserId,
    transcript: row.transcript,
    metadata: {
      start_time_unix_secs: Math.floor(row.startedAt.getTime() / 1000),
      call_duration_secs: row.durationSecs,
      cost: row.minutesCharged,
      termination_reason: row.terminationReason,
      main_language: row.language,
      text_only: row.textOnly,
      feedback: {
        overall_score: row.feedback,
        likes: row.feedback === 'like' ? 1 : 0,
        dislikes: row.feedback === 'dislike' ? 1 : 0,
      },
      authorization_method: row.authorizationMethod,
      response_mode: row.responseMode,
      response_mode_reason: row.responseModeReason,
      error:
        row.errorCode !== null && row.errorCode !== 1000
          ? { code: row.errorCode, reason: row.terminationReason }
          : null,
      phone_call: row.phoneCall ?? null,
    },
    analysis: row.analysis ?? null,
    conversation_initiation_client_data: row.initiationData,
    has_audio: row.audioKey !== null,
    has_user_audio: row.hasUserAudio,
    has_response_audio: row.hasResponseAudio,
    has_auxiliary_audio: false,
  };
}

/** A cursor is the last row's start time and id, opaque to the client. */
function encodeCursor(row: ConversationRow): string {
  return Buffer.from(`${row.startedAt.getTime()}:${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { startedAt: Date; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{1,15}):([A-Za-z0-9_-]{1,64})$/.exec(text);
  if (!match) throw new AppError('invalid_request', 'The cursor is not one this server gave.');
  return { startedAt: new Date(Number(match[1])), id: match[2] as string };
}

export async function listWorkspaceConversations(
  deps: ConversationsDeps,
  caller: RequestCaller,
  query: {
    cursor?: string | undefined;
    agent_id?: string | undefined;
    call_start_before_unix?: number | undefined;
    call_start_after_unix?: number | undefined;
    page_size: number;
    search?: string | undefined;
    user_id?: string | undefined;
  },
) {
  const rows = await listConversations(deps.db, {
    workspaceId: caller.workspaceId,
    agentId: query.agent_id,
    startedAfter:
      query.call_start_after_unix !== undefined ? new Date(query.call_start_after_unix * 1000) : undefined,
    startedBefore:
      query.call_start_before_unix !== undefined ? new Date(query.call_start_before_unix * 1000) : undefined,
    search: query.search?.trim() || undefined,
    clientUserId: query.user_id,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.page_size + 1,
  });
  const page = rows.slice(0, query.page_size);
  const last = page.at(-1);
  const hasMore = rows.length > query.page_size;
  return {
    conversations: page.map(summaryOf),
    next_cursor: hasMore && last ? encodeCursor(last) : null,
    has_more: hasMore,
  };
}

export async function getConversation(deps: ConversationsDeps, caller: RequestCaller, id: string) {
  const row = await findConversation(deps.db, caller.workspaceId, id);
  if (!row) throw missing();
  return detailOf(row);
}

export async function conversationAudio(deps: ConversationsDeps, caller: RequestCaller, id: string) {
  const row = await findConversation(deps.db, caller.workspaceId, id);
  if (!row) throw missing();
  const stat = row.audioKey ? await deps.storage.stat(row.audioKey) : undefined;
  if (!row.audioKey || !stat)
    throw new AppError(
      'resource_not_found',
      row.status === 'in-progress' || row.status === 'processing'
        ? 'The conversation is still going on; its recording is kept when it ends.'
        : 'This conversation has no recording (its agent does not record audio, or nothing was said).',
    );
  return { key: row.audioKey, size: stat.size };
}

export async function deleteConversation(
  deps: ConversationsDeps,
  caller: RequestCaller,
  id: string,
): Promise<void> {
  const existing = await findConversation(deps.db, caller.workspaceId, id);
  if (!existing) throw missing();
  if (existing.status === 'in-progress')
    throw new AppError('conflict', 'The conversation is still going on; delete it once it has ended.');
  const row = await deleteConversationRow(deps.db, caller.workspaceId, id);
  if (row?.audioKey) await deps.storage.delete(row.audioKey);
}

/** The client's feedback (from the page, without a key: the conversation's id is the permission). */
export async function conversationFeedback(
  deps: ConversationsDeps,
  id: string,
  body: {
    feedback?: 'like' | 'dislike' | null | undefined;
    rating?: number | undefined;
    comment?: string | undefined;
  },
): Promise<void> {
  const row = await findConversationById(deps.db, id);
  if (!row) throw missing();
  await updateConversation(deps.db, id, {
    ...(body.feedback !== undefined ? { feedback: body.feedback } : {}),
    ...(body.rating !== undefined ? { rating: body.rating } : {}),
    ...(body.comment !== undefined ? { feedbackComment: body.comment } : {}),
  });
}

/** Deletes conversations past their retention with their recordings (a batch; the schedule repeats). */
export async function deleteExpiredConversations(deps: ConversationsDeps, now: Date): Promise<number> {
  const rows = await expiredConversations(deps.db, now, 200);
  for (const row of rows) {
    await deleteConversationRow(deps.db, row.workspaceId, row.id);
    if (row.audioKey) await deps.storage.delete(row.audioKey);
  }
  return rows.length;
}
