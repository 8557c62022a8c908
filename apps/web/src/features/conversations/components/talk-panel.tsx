import type { AgentSummary } from '@parla/contracts';
import { clsx } from 'clsx';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { FormMessage, inputClasses } from '../../../ui/field';
import { MicrophoneIcon, SpinnerIcon } from '../../../ui/icons';
import { useAgentSession } from '../use-agent-session';
import { conversationPath } from './conversation-list';

/**
 * Speaking with an agent in the browser (issue 28 item 7 "playground / talk-to"): pick the agent, start,
 * and the live transcript fills as the agent and you speak; mute the microphone, type instead, end. It
 * talks to the real server: the conversation is kept in the history like any other.
 */
export function TalkPanel({
  agents,
  agentId,
  onAgentChange,
}: {
  agents: readonly AgentSummary[];
  agentId: string;
  onAgentChange: (agentId: string) => void;
}) {
  const id = useId();
  const { state, start, end, setMuted, sendText, reset } = useAgentSession(agentId || null);
  const [draft, setDraft] = useState('');
  const transcriptEnd = useRef<HTMLLIElement>(null);
  const busy = state.phase === 'connecting' || state.phase === 'connected';
  const agent = agents.find((each) => each.agent_id === agentId);

  // New lines come into sight as they arrive.
  useEffect(() => {
    if (state.lines.length > 0) transcriptEnd.current?.scrollIntoView?.({ block: 'nearest' });
  }, [state.lines.length]);

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (sendText(draft)) setDraft('');
  };

  const statusBadge =
    state.phase === 'connecting' ? (
      <Badge dot tone="accent">
        Connecting…
      </Badge>
    ) : state.phase === 'connected' ? (
      state.mode === 'speaking' ? (
        <Badge dot tone="success">
          Agent speaking
        </Badge>
      ) : (
        <Badge dot tone="accent">
          {state.muted ? 'Listening (you are muted)' : 'Listening'}
        </Badge>
      )
    ) : state.phase === 'ended' ? (
      <Badge dot>Ended</Badge>
    ) : (
      <Badge dot>Not started</Badge>
    );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <label htmlFor={`${id}-agent`} className="text-sm font-medium">
            Agent
          </label>
          <select
            id={`${id}-agent`}
            value={agentId}
            disabled={busy}
            onChange={(event) => {
              reset();
              onAgentChange(event.target.value);
            }}
            className={inputClasses}
          >
            <option value="">Choose an agent</option>
            {agentId && !agent && <option value={agentId}>{agentId}</option>}
            {agents.map((each) => (
              <option key={each.agent_id} value={each.agent_id}>
                {each.name}
              </option>
            ))}
          </select>
        </div>
        {busy ? (
          <Button variant="danger" onClick={() => void end()}>
            {state.phase === 'connecting' ? 'Cancel' : 'End conversation'}
          </Button>
        ) : (
          <Button disabled={!agentId} onClick={() => void start()}>
            <MicrophoneIcon aria-hidden="true" />
            {state.phase === 'ended' ? 'Start again' : 'Start conversation'}
          </Button>
        )}
      </div>

      <section
        aria-label="Conversation"
        className="flex min-h-80 flex-col overflow-hidden rounded-xl border border-line bg-surface"
      >
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-line px-4 py-3">
          <div role="status" aria-live="polite" className="flex items-center gap-2 text-sm">
            {state.phase === 'connecting' && (
              <SpinnerIcon aria-hidden="true" className="motion-safe:animate-spin" />
            )}
            {statusBadge}
          </div>
          {state.phase === 'connected' && (
            <Button
              variant={state.muted ? 'primary' : 'secondary'}
              size="sm"
              aria-pressed={state.muted}
              onClick={() => setMuted(!state.muted)}
            >
              {state.muted ? 'Unmute microphone' : 'Mute microphone'}
            </Button>
          )}
        </div>

        <ol
          aria-label="Live transcript"
          aria-live="polite"
          className="flex flex-1 flex-col gap-3 overflow-y-auto p-4"
        >
          {state.lines.length === 0 && (
            <li className="m-auto max-w-sm text-center text-sm text-fg-muted">
              {state.phase === 'idle'
                ? agentId
                  ? 'Press “Start conversation” and allow the microphone: the agent greets you, then listens.'
                  : 'Choose an agent to talk to.'
                : state.phase === 'connecting'
                  ? 'Connecting to the agent…'
                  : state.phase === 'connected'
                    ? 'Say something, or type below.'
                    : 'Nothing was said.'}
            </li>
          )}
          {state.lines.map((line) => (
            <li
              key={line.id}
              className={clsx(
                'flex max-w-[85%] flex-col gap-0.5 rounded-xl px-3 py-2 text-sm',
                line.role === 'agent' ? 'self-start bg-subtle' : 'self-end bg-accent/10',
              )}
            >
              <span className="text-xs font-medium text-fg-muted">
                {line.role === 'agent' ? agent?.name || 'Agent' : line.typed ? 'You (typed)' : 'You'}
              </span>
              <span className="whitespace-pre-wrap [overflow-wrap:anywhere]">{line.text}</span>
            </li>
          ))}
          <li ref={transcriptEnd} aria-hidden="true" />
        </ol>

        <form onSubmit={send} className="flex gap-2 border-t border-line p-3">
          <label htmlFor={`${id}-text`} className="sr-only">
            Message to the agent
          </label>
          <input
            id={`${id}-text`}
            value={draft}
            maxLength={10_000}
            disabled={state.phase !== 'connected'}
            onChange={(event) => setDraft(event.target.value)}
            placeholder={state.phase === 'connected' ? 'Type a message' : 'Start the conversation to type'}
            className={inputClasses}
          />
          <Button type="submit" variant="secondary" disabled={state.phase !== 'connected' || !draft.trim()}>
            Send
          </Button>
        </form>
      </section>

      {state.error && <FormMessage>{state.error}</FormMessage>}
      {state.endNote && !state.error && <p className="text-sm text-fg-muted">{state.endNote}</p>}
      {state.phase === 'ended' && state.conversationId && (
        <p className="text-sm">
          <Link to={conversationPath(state.conversationId)} className="font-medium underline">
            Open this conversation in the history
          </Link>{' '}
          <span className="text-fg-muted">— its transcript and recording.</span>
        </p>
      )}
    </div>
  );
}
