import type { ConversationDetail, ConversationStatus, ResponseMode } from '@parla/contracts';
import { getToastMessage, isHttpError } from '../../lib/http-error';

/** A length in seconds as the history shows it: "0:42", "12:05", "1:02:09". */
export function formatCallDuration(totalSecs: number): string {
  const secs = Math.max(0, Math.round(totalSecs));
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const s = secs % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

export const conversationStatusLabels: Record<
  ConversationStatus,
  { label: string; tone: 'neutral' | 'accent' | 'success' | 'danger' }
> = {
  initiated: { label: 'Starting', tone: 'accent' },
  'in-progress': { label: 'In progress', tone: 'accent' },
  processing: { label: 'Processing', tone: 'accent' },
  done: { label: 'Done', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

/** A sentence's first letter in lower case, for joining it after a colon ("No model" → "no model"). */
function continueSentence(text: string): string {
  const trimmed = text.trim().replace(/\.$/, '');
  // An acronym or a name ("LLM_OPENAI_URL is not set") keeps its capitals.
  return /^[A-Z][a-z]/.test(trimmed) ? trimmed[0]?.toLowerCase() + trimmed.slice(1) : trimmed;
}

/**
 * How the agent answered, said plainly (issue 28 "knowledge-base mode … said plainly in the UI"): a
 * language model (named when the server says which), or the knowledge base's best passage and why.
 */
export function describeResponseMode(mode: ResponseMode, reason: string | null): string {
  if (mode === 'knowledge_base') {
    return `Answered from the knowledge base: ${reason?.trim() ? continueSentence(reason) : 'no language model was available'}. Each answer is the passage that best matches what was said.`;
  }
  return reason?.trim()
    ? `Answered by a language model (${reason.trim()}).`
    : 'Answered by a language model.';
}

/** Minutes charged, in words. */
export function describeMinutes(minutes: number): string {
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** How the conversation ended, for the metadata; null when the server gave no reason. */
export function describeEnd(conversation: Pick<ConversationDetail, 'metadata'>): string | null {
  const { error, termination_reason } = conversation.metadata;
  if (error?.reason) return `Ended with an error: ${error.reason}`;
  return termination_reason?.trim() || null;
}

/** Pretty JSON of a tool call's parameters (or the text as it came when it is not JSON). */
export function formatToolParams(paramsAsJson: string): string {
  try {
    return JSON.stringify(JSON.parse(paramsAsJson), null, 2);
  } catch {
    return paramsAsJson;
  }
}

/** The unix-seconds bounds of a day range picked as YYYY-MM-DD (local days); undefined ends are open. */
export function dayRangeToUnix(from: string, to: string): { after?: number; before?: number } {
  const dayStart = (value: string) => {
    const [y, m, d] = value.split('-').map(Number);
    if (!y || !m || !d) return undefined;
    return Math.floor(new Date(y, m - 1, d).getTime() / 1000);
  };
  const after = from ? dayStart(from) : undefined;
  const toStart = to ? dayStart(to) : undefined;
  return {
    ...(after !== undefined && { after }),
    ...(toStart !== undefined && { before: toStart + 24 * 60 * 60 }),
  };
}

// ---- The talk-to page's errors, in plain words ----------------------------------------------------------

export const talkMessages = {
  microphoneBlocked:
    'The microphone is blocked for this site. Allow it (the icon beside the address bar), then start again — or type below once connected.',
  noMicrophone: 'No microphone was found. Plug one in and start again.',
  microphoneBusy: 'The microphone is in use by another app. Close it and start again.',
  agentNotFound:
    'This agent was not found: it may have been deleted, or it belongs to another workspace. Pick another agent.',
  minutesUsedUp:
    'The workspace’s conversation minutes for this period are used up. Upgrade the plan, or wait for the next period.',
  tooMany: 'Too many conversations are running at once for this plan. End one and try again.',
  notAllowed: 'This conversation was not allowed. Sign in again, then start again.',
  maxDuration: 'The conversation reached its longest allowed length and was ended.',
  lostConnection: 'The connection to the agent was lost.',
  couldNotStart: 'The conversation could not start.',
} as const;

/** The protocol's `error_event.error_type`s (contracts CONVERSATION_ERROR_TYPES) people can act on. */
const errorTypeMessages: Record<string, string> = {
  agent_not_found: talkMessages.agentNotFound,
  quota_exceeded: talkMessages.minutesUsedUp,
  too_many_concurrent_conversations: talkMessages.tooMany,
  unauthorized: talkMessages.notAllowed,
  max_duration_exceeded: talkMessages.maxDuration,
};

function nameOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
}

/**
 * Why "Start conversation" failed, in plain words: the microphone (the browser's permission errors), the
 * signed URL refused (the API's own message: an unknown agent, minutes used up), or the socket closed
 * before the conversation began (the server's close reason says why).
 */
export function describeStartError(error: unknown): string {
  const name = nameOf(error);
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return talkMessages.microphoneBlocked;
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return talkMessages.noMicrophone;
  if (name === 'NotReadableError' || name === 'TrackStartError') return talkMessages.microphoneBusy;
  if (isHttpError(error)) {
    if (error.errorType === 'quota_exceeded') return talkMessages.minutesUsedUp;
    return getToastMessage(error);
  }
  const closeReason =
    typeof error === 'object' && error !== null && 'closeReason' in error
      ? (error as { closeReason?: unknown }).closeReason
      : undefined;
  if (typeof closeReason === 'string' && closeReason.trim()) return closeReason.trim();
  if (error instanceof Error && /microphone|getUserMedia|permission/i.test(error.message))
    return talkMessages.microphoneBlocked;
  // Anything else: what the client said, after our sentence, so it can be reported.
  const said = error instanceof Error ? error.message.trim() : '';
  return said
    ? `${talkMessages.couldNotStart} ${said.endsWith('.') ? said : `${said}.`}`
    : talkMessages.couldNotStart;
}

/** An `onError` of a running conversation: the protocol's error type in plain words, else its message. */
export function describeSessionError(message: string, context?: unknown): string {
  const errorType =
    typeof context === 'object' && context !== null && 'errorType' in context
      ? String((context as { errorType?: unknown }).errorType)
      : '';
  const known = errorTypeMessages[errorType];
  if (known) return known;
  return message.replace(/^Server error:\s*/, '').trim() || talkMessages.lostConnection;
}

/** How a conversation ended, for the line under the transcript; null for the user's own "End". */
export function describeDisconnect(
  details:
    | { reason: 'user' }
    | { reason: 'agent' }
    | { reason: 'error'; message: string; closeReason?: string },
): { text: string; isError: boolean } | null {
  if (details.reason === 'user') return null;
  if (details.reason === 'agent') return { text: 'The agent ended the conversation.', isError: false };
  const said = (details.closeReason?.trim() || details.message).trim();
  return { text: said || talkMessages.lostConnection, isError: true };
}
