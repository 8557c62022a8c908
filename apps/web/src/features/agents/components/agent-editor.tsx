import type { AgentResponse, ModelResponse, VoiceResponse } from '@parla/contracts';
import { useEffect, useId, useState } from 'react';
import { useBlocker, useSearchParams } from 'react-router';
import { getToastMessage, isHttpError } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { FormMessage } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';
import {
  AGENT_EDITOR_TABS,
  type AgentDraft,
  type AgentEditorTab,
  agentPatch,
  changedTabs,
  checkAgentPatch,
  draftOf,
  type FieldErrors,
  readAgentFieldErrors,
  tabOf,
  tabsWithErrors,
} from '../agent-editor-rules';
import { useUpdateAgent } from '../api/update-agent';
import { AgentTab } from './agent-tab';
import { AnalysisTab } from './analysis-tab';
import { EditorTabs, panelIdOf, tabIdOf } from './editor-tabs';
import { KnowledgeBaseTab } from './knowledge-base-tab';
import { SecurityTab } from './security-tab';
import { ToolsTab } from './tools-tab';
import { VoiceTab } from './voice-tab';
import { WidgetTab } from './widget-tab';

export interface AgentEditorProps {
  agent: AgentResponse;
  voices: readonly VoiceResponse[];
  models: readonly ModelResponse[];
  /** This server's address, for the widget's snippet. */
  origin: string;
}

/**
 * The agent editor (issue 28 item 7): seven tabs over one draft; Save sends only what changed (PATCH), the
 * contract checks it first and the server's 422 shows under the fields, and leaving with unsaved changes
 * asks first.
 */
export function AgentEditor({ agent, voices, models, origin }: AgentEditorProps) {
  const idBase = useId();
  const { toast, toastError } = useToast();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabOf(searchParams.get('tab'));
  const saved = draftOf(agent);
  const [draft, setDraft] = useState<AgentDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string>();
  const current = draft ?? saved;
  const patch = agentPatch(saved, current);
  const dirty = Object.keys(patch).length > 0;
  const update = useUpdateAgent();

  const edit = (recipe: (d: AgentDraft) => AgentDraft) => setDraft((d) => recipe(d ?? saved));
  const setTab = (next: AgentEditorTab) =>
    setSearchParams(
      (params) => {
        const out = new URLSearchParams(params);
        if (next === 'agent') out.delete('tab');
        else out.set('tab', next);
        return out;
      },
      { replace: true },
    );

  // Leaving the editor (another page, the browser's back) with unsaved changes asks first; tabs do not.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [dirty]);

  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    const tabs = tabsWithErrors(found);
    if (tabs.size > 0 && !tabs.has(tab)) {
      const first = AGENT_EDITOR_TABS.find((t) => tabs.has(t.id));
      if (first) setTab(first.id);
    }
  };

  const handleSave = () => {
    if (!dirty || update.isPending) return;
    const found = checkAgentPatch(patch);
    if (Object.keys(found).length > 0) {
      setRefusal('Some fields need a change before the agent can be saved.');
      showErrors(found);
      return;
    }
    setRefusal(undefined);
    update.mutate(
      { agentId: agent.agent_id, body: patch },
      {
        onSuccess: () => {
          setDraft(null);
          setErrors({});
          toast({ title: 'Agent saved', variant: 'success' });
        },
        onError: (error) => {
          const found = isHttpError(error) && error.status === 422 ? readAgentFieldErrors(error.data) : {};
          if (Object.keys(found).length > 0) {
            setRefusal(getToastMessage(error));
            showErrors(found);
          } else toastError(error);
        },
      },
    );
  };
  const handleDiscard = () => {
    setDraft(null);
    setErrors({});
    setRefusal(undefined);
  };

  const tabProps = { draft: current, edit, errors };
  return (
    <div className="flex flex-col gap-5">
      {/* Below the shell's sticky 3.5rem header (and its 1px border) while the app has no sidebar (< lg). */}
      <div className="sticky top-[calc(3.5rem+1px)] z-10 lg:top-0 -mx-4 flex flex-wrap items-center justify-between gap-3 border-b border-line bg-bg/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6">
        <div className="flex min-w-0 flex-col">
          <h1 className="truncate text-xl font-semibold tracking-tight">
            {current.name || 'Untitled agent'}
          </h1>
          <p className="text-xs text-fg-muted" role="status">
            {dirty ? 'Unsaved changes' : 'All changes saved'}
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={handleDiscard} disabled={!dirty || update.isPending}>
            Discard
          </Button>
          <Button onClick={handleSave} aria-disabled={!dirty || undefined} aria-busy={update.isPending}>
            {update.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            {update.isPending ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      </div>
      {refusal && <FormMessage>{refusal}</FormMessage>}
      <EditorTabs
        idBase={idBase}
        current={tab}
        onChange={setTab}
        changed={changedTabs(patch)}
        withErrors={tabsWithErrors(errors)}
      />
      <div role="tabpanel" id={panelIdOf(idBase, tab)} aria-labelledby={tabIdOf(idBase, tab)}>
        {tab === 'agent' && <AgentTab {...tabProps} />}
        {tab === 'voice' && <VoiceTab {...tabProps} voices={voices} models={models} />}
        {tab === 'knowledge-base' && <KnowledgeBaseTab {...tabProps} />}
        {tab === 'tools' && <ToolsTab {...tabProps} agentId={agent.agent_id} />}
        {tab === 'widget' && <WidgetTab {...tabProps} agentId={agent.agent_id} origin={origin} />}
        {tab === 'security' && <SecurityTab {...tabProps} />}
        {tab === 'analysis' && <AnalysisTab {...tabProps} />}
      </div>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title="Leave without saving?"
        description="Your changes to this agent are not saved yet; leaving drops them."
        confirmLabel="Leave without saving"
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </div>
  );
}
