import type { AgentSummary } from '@parla/contracts';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { getButtonClasses } from '../../../ui/button';
import { InitialAvatar } from '../../../ui/initial-avatar';
import { agentEditorPath } from '../agent-paths';

export interface AgentRowProps {
  agent: AgentSummary;
  onOpen: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}

const itemClasses =
  'flex cursor-pointer items-center rounded-md px-2 py-1.5 text-sm outline-none select-none data-disabled:opacity-50 data-highlighted:bg-subtle';

/** One agent of the list: its name (a link to the editor), when it was made and its menu. */
export function AgentRow({ agent, onOpen, onDuplicate, onDelete }: AgentRowProps) {
  const headingId = `agent-${agent.agent_id}`;
  const name = agent.name || 'Untitled agent';
  return (
    <li aria-labelledby={headingId} className="flex items-center gap-3 px-4 py-3 sm:px-5">
      <InitialAvatar name={name} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <h3 id={headingId} className="truncate text-sm font-medium">
          <Link
            to={agentEditorPath(agent.agent_id)}
            className="rounded-sm underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            {name}
          </Link>
        </h3>
        <p className="truncate text-xs text-fg-muted">
          Created {formatDate(fromUnixSeconds(agent.created_at_unix_secs))}
          {agent.last_call_time_unix_secs !== null &&
            ` · Last call ${formatDate(fromUnixSeconds(agent.last_call_time_unix_secs))}`}
        </p>
      </div>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className={getButtonClasses('ghost', 'icon')}
          aria-label={`Actions for ${name}`}
        >
          <span aria-hidden="true">⋯</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-50 min-w-44 rounded-lg border border-line bg-surface p-1 text-fg shadow-lg dark:shadow-black/40"
          >
            <DropdownMenu.Item className={itemClasses} onSelect={onOpen}>
              Open
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClasses} onSelect={onDuplicate}>
              Duplicate
            </DropdownMenu.Item>
            <DropdownMenu.Separator className="my-1 h-px bg-line" />
            <DropdownMenu.Item className={`${itemClasses} text-danger`} onSelect={onDelete}>
              Delete
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </li>
  );
}
