import { clsx } from 'clsx';
import { type KeyboardEvent, useRef } from 'react';
import { AGENT_EDITOR_TABS, type AgentEditorTab } from '../agent-editor-rules';

export interface EditorTabsProps {
  idBase: string;
  current: AgentEditorTab;
  onChange: (tab: AgentEditorTab) => void;
  changed: ReadonlySet<AgentEditorTab>;
  withErrors: ReadonlySet<AgentEditorTab>;
}

/** The id of a tab's panel, which its tab controls. */
export const panelIdOf = (idBase: string, tab: AgentEditorTab) => `${idBase}-panel-${tab}`;
export const tabIdOf = (idBase: string, tab: AgentEditorTab) => `${idBase}-tab-${tab}`;

/**
 * The editor's tab strip (WAI-ARIA tabs): the chosen tab is in the Tab order, arrows, Home and End move
 * between tabs. A tab with unsaved changes shows a dot, one with an error a mark, both said in its name.
 */
export function EditorTabs({ idBase, current, onChange, changed, withErrors }: EditorTabsProps) {
  const refs = useRef(new Map<AgentEditorTab, HTMLButtonElement>());
  const handleKeyDown = (event: KeyboardEvent) => {
    const index = AGENT_EDITOR_TABS.findIndex((tab) => tab.id === current);
    const last = AGENT_EDITOR_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const tab = AGENT_EDITOR_TABS[next]?.id ?? current;
    onChange(tab);
    refs.current.get(tab)?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label="Agent settings"
      tabIndex={-1}
      onKeyDown={handleKeyDown}
      className="flex w-fit max-w-full flex-wrap gap-1 rounded-lg border border-line bg-subtle p-1"
    >
      {AGENT_EDITOR_TABS.map((tab) => {
        const selected = tab.id === current;
        const error = withErrors.has(tab.id);
        const dirty = changed.has(tab.id);
        return (
          <button
            key={tab.id}
            ref={(node) => {
              if (node) refs.current.set(tab.id, node);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={tabIdOf(idBase, tab.id)}
            aria-selected={selected}
            aria-controls={panelIdOf(idBase, tab.id)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.id)}
            className={clsx(
              'inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
              selected ? 'bg-surface text-fg shadow-xs' : 'text-fg-muted hover:text-fg',
            )}
          >
            {tab.label}
            {error ? (
              <span className="text-danger">
                <span aria-hidden="true">!</span>
                <span className="sr-only">(has an error)</span>
              </span>
            ) : (
              dirty && <span className="size-1.5 rounded-full bg-accent" role="img" aria-label="changed" />
            )}
          </button>
        );
      })}
    </div>
  );
}
