import type { AgentSummary, ConversationSummary } from '@parla/contracts';
import { clsx } from 'clsx';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { collectPageItems } from '../../../lib/page-items';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { inputClasses } from '../../../ui/field';
import { PagedList } from '../../../ui/paged-list';
import { useConversations } from '../api/list-conversations';
import { conversationStatusLabels, dayRangeToUnix, formatCallDuration } from '../conversation-rules';

/** The path of a conversation's page. */
export function conversationPath(conversationId: string): string {
  return `/app/conversational-ai/history/${encodeURIComponent(conversationId)}`;
}

/**
 * The workspace's conversations with agents, newest first (issue 28 item 5): filtered by agent and by
 * the days they started; each with its agent, start, length, messages and status, opening its page.
 */
export function ConversationList({
  agents,
  initialAgentId = '',
}: {
  /** The agents to filter by (the picker's list; empty while it loads). */
  agents: readonly AgentSummary[];
  initialAgentId?: string;
}) {
  const id = useId();
  const [agentId, setAgentId] = useState(initialAgentId);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const range = dayRangeToUnix(from, to);
  const pages = useConversations({ agentId: agentId || undefined, ...range });
  const conversations = useMemo(
    () =>
      collectPageItems(
        pages.data?.pages,
        (page) => page.conversations,
        (conversation) => conversation.conversation_id,
      ),
    [pages.data],
  );
  const filtered = agentId !== '' || from !== '' || to !== '';
  const rangeWrong = range.after !== undefined && range.before !== undefined && range.before <= range.after;

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <h2 id={`${id}-heading`} className="sr-only">
        Conversations
      </h2>
      <search className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-agent`} className="text-sm font-medium">
            Agent
          </label>
          <select
            id={`${id}-agent`}
            value={agentId}
            onChange={(event) => setAgentId(event.target.value)}
            className={inputClasses}
          >
            <option value="">All agents</option>
            {agentId && !agents.some((agent) => agent.agent_id === agentId) && (
              <option value={agentId}>{agentId}</option>
            )}
            {agents.map((agent) => (
              <option key={agent.agent_id} value={agent.agent_id}>
                {agent.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-from`} className="text-sm font-medium">
            From
          </label>
          <input
            id={`${id}-from`}
            type="date"
            value={from}
            max={to || undefined}
            onChange={(event) => setFrom(event.target.value)}
            className={inputClasses}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-to`} className="text-sm font-medium">
            To
          </label>
          <input
            id={`${id}-to`}
            type="date"
            value={to}
            min={from || undefined}
            onChange={(event) => setTo(event.target.value)}
            className={inputClasses}
          />
        </div>
      </search>
      {rangeWrong && <p className="text-sm text-danger">The “To” day is before the “From” day.</p>}

      <PagedList
        pages={pages}
        empty={conversations.length === 0}
        loading={{ label: 'Loading conversations', rows: 3, lineWidths: ['w-1/2', 'w-1/3'] }}
        emptyClassName="gap-2 py-12"
        emptyState={
          filtered ? (
            <>
              <h3 className="text-base font-semibold">No conversations match</h3>
              <p className="max-w-sm text-sm text-fg-muted">None with this agent in these days.</p>
              <Button
                variant="secondary"
                onClick={() => {
                  setAgentId('');
                  setFrom('');
                  setTo('');
                }}
              >
                Show all conversations
              </Button>
            </>
          ) : (
            <>
              <h3 className="text-base font-semibold">No conversations yet</h3>
              <p className="max-w-md text-sm text-fg-muted">
                Each conversation with one of your agents — from the talk-to page, the widget or the API — is
                kept here with its transcript and recording.
              </p>
              <Button variant="secondary" asChild>
                <Link to="/app/conversational-ai/talk-to">Talk to an agent</Link>
              </Button>
            </>
          )
        }
      >
        {conversations.length > 0 && (
          <ul
            aria-label="Conversations"
            aria-busy={pages.isPlaceholderData || undefined}
            className={clsx(
              'flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface transition-opacity',
              pages.isPlaceholderData && 'opacity-60',
            )}
          >
            {conversations.map((conversation) => (
              <ConversationRow key={conversation.conversation_id} conversation={conversation} />
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
}

function ConversationRow({ conversation }: { conversation: ConversationSummary }) {
  const status = conversationStatusLabels[conversation.status];
  const agentName = conversation.agent_name ?? 'Deleted agent';
  const title = conversation.call_summary_title?.trim() || `Conversation with ${agentName}`;
  const details = [
    formatDate(fromUnixSeconds(conversation.start_time_unix_secs)),
    formatCallDuration(conversation.call_duration_secs),
    `${conversation.message_count} ${conversation.message_count === 1 ? 'message' : 'messages'}`,
  ];
  return (
    <li className="relative flex flex-col gap-1 px-4 py-4 hover:bg-subtle/60 sm:px-5">
      <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
        <Link
          to={conversationPath(conversation.conversation_id)}
          className="min-w-0 font-medium text-fg [overflow-wrap:anywhere] after:absolute after:inset-0 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          {title}
        </Link>
        <Badge dot tone={status.tone}>
          {status.label}
        </Badge>
      </div>
      <p className="text-sm text-fg-muted [overflow-wrap:anywhere]">{agentName}</p>
      <p className="text-xs text-fg-muted tabular-nums">{details.join(' · ')}</p>
    </li>
  );
}
