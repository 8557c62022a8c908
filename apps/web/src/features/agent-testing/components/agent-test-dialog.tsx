import type { ToolResponse } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { SelectField, TextAreaField } from '../../../ui/editor-fields';
import { FormMessage, TextField } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { LoadError } from '../../../ui/load-error';
import { SegmentedControl } from '../../../ui/segmented-control';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import {
  type AgentTestForm,
  bodyOfForm,
  emptyTestForm,
  formOfTest,
  type ParameterForm,
  SYSTEM_TOOL_NAMES,
  type TestFormErrors,
  validateTestForm,
} from '../agent-test-form-rules';
import { agentTestingQueryKeys } from '../api/agent-testing-query-keys';
import { getAgentTest } from '../api/get-agent-test';
import { useSaveAgentTest } from '../api/save-agent-test';

export interface AgentTestDialogProps {
  /** `'new'`, a test's id to edit, or null when closed. */
  test: string | null;
  tools: ToolResponse[];
  onClose: () => void;
  onSaved: (name: string) => void;
}

const CHECKS: { value: ParameterForm['check']; label: string }[] = [
  { value: 'exact', label: 'Is exactly' },
  { value: 'regex', label: 'Matches pattern' },
  { value: 'anything', label: 'Is present' },
  { value: 'llm', label: 'Fits a description (judged)' },
];

/** Creates or edits a test: the conversation so far, and what the agent's next answer must do. */
export function AgentTestDialog({ test, tools, onClose, onSaved }: AgentTestDialogProps) {
  const editingId = test !== null && test !== 'new' ? test : null;
  const existing = useQuery({
    queryKey: [...agentTestingQueryKeys.tests, 'detail', editingId ?? ''],
    queryFn: () => getAgentTest(editingId ?? ''),
    enabled: editingId !== null,
  });
  const [form, setForm] = useState<AgentTestForm>(emptyTestForm());
  const [errors, setErrors] = useState<TestFormErrors>({});
  const save = useSaveAgentTest();

  useEffect(() => {
    if (test === 'new') setForm(emptyTestForm());
    setErrors({});
  }, [test]);
  useEffect(() => {
    if (editingId && existing.data?.id === editingId) setForm(formOfTest(existing.data));
  }, [editingId, existing.data]);

  const set = (patch: Partial<AgentTestForm>) => setForm((f) => ({ ...f, ...patch }));
  const setTurn = (index: number, patch: Partial<AgentTestForm['turns'][number]>) =>
    set({ turns: form.turns.map((t, at) => (at === index ? { ...t, ...patch } : t)) });
  const setParameter = (index: number, patch: Partial<ParameterForm>) =>
    set({ parameters: form.parameters.map((p, at) => (at === index ? { ...p, ...patch } : p)) });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const found = validateTestForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      { testId: editingId ?? undefined, body: bodyOfForm(form) },
      {
        onSuccess: () => onSaved(form.name.trim()),
        onError: (error) => setErrors({ form: getToastMessage(error) }),
      },
    );
  };

  const toolOptions = [
    { value: '', label: 'Choose a tool' },
    ...tools
      .filter((t) => t.tool_config.type !== 'system')
      .map((t) => ({ value: t.id, label: `${t.tool_config.name} (${t.tool_config.type})` })),
    ...SYSTEM_TOOL_NAMES.map((name) => ({ value: `system:${name}`, label: `${name} (built-in)` })),
  ];
  const loading = editingId !== null && existing.isPending;

  return (
    <Dialog
      open={test !== null}
      onOpenChange={(open) => {
        if (!open && !save.isPending) onClose();
      }}
      title={editingId ? 'Edit test' : 'New test'}
      description="Write the conversation so far; the test checks the agent’s answer to its last user message."
      size="2xl"
    >
      {loading ? (
        <div role="status" aria-label="Loading the test" className="flex flex-col gap-3">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : existing.isError ? (
        <LoadError error={existing.error} onRetry={() => void existing.refetch()} />
      ) : (
        <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-5">
          <TextField
            label="Test name"
            value={form.name}
            maxLength={200}
            placeholder="Books a table for the right day"
            onChange={(event) => set({ name: event.target.value })}
            error={errors.name}
          />
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 text-sm font-medium">Conversation</legend>
            <ol className="flex flex-col gap-3">
              {form.turns.map((turn, i) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: turns have no id; their order is what they are.
                  key={i}
                  className="flex flex-col gap-2 rounded-lg border border-line p-3 sm:flex-row sm:items-start"
                >
                  <SelectField
                    label={`Turn ${i + 1} speaker`}
                    className="sm:w-36"
                    value={turn.role}
                    onChange={(event) => setTurn(i, { role: event.target.value as 'user' | 'agent' })}
                    options={[
                      { value: 'user', label: 'User' },
                      { value: 'agent', label: 'Agent' },
                    ]}
                  />
                  <TextAreaField
                    label={`Turn ${i + 1} message`}
                    className="min-w-0 flex-1"
                    rows={2}
                    value={turn.message}
                    maxLength={8000}
                    onChange={(event) => setTurn(i, { message: event.target.value })}
                    error={errors[`turn.${i}`]}
                  />
                  <Button
                    variant="ghost"
                    size="sm"
                    className="self-end sm:mt-7 sm:self-start"
                    aria-label={`Remove turn ${i + 1}`}
                    disabled={form.turns.length === 1}
                    onClick={() => set({ turns: form.turns.filter((_, at) => at !== i) })}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ol>
            {errors.turns && (
              <p role="alert" className="text-sm text-danger">
                {errors.turns}
              </p>
            )}
            <div>
              <Button
                variant="secondary"
                size="sm"
                onClick={() =>
                  set({
                    turns: [
                      ...form.turns,
                      { role: form.turns.at(-1)?.role === 'user' ? 'agent' : 'user', message: '' },
                    ],
                  })
                }
              >
                Add turn
              </Button>
            </div>
          </fieldset>
          <SegmentedControl
            label="What to check"
            value={form.type}
            onChange={(type) => set({ type })}
            options={[
              { value: 'llm', label: 'Answer', note: 'judged' },
              { value: 'tool', label: 'Tool call', note: 'exact' },
            ]}
          />
          {form.type === 'llm' ? (
            <>
              <TextAreaField
                label="Success condition"
                rows={2}
                maxLength={4000}
                value={form.successCondition}
                placeholder="The agent confirms a table for four on Sunday and asks for a name."
                onChange={(event) => set({ successCondition: event.target.value })}
                description="The workspace’s language model reads the answer and decides, with its reason."
                error={errors.successCondition}
              />
              <div className="grid gap-4 sm:grid-cols-2">
                <TextAreaField
                  label="Answers that pass"
                  rows={3}
                  value={form.successExamples}
                  onChange={(event) => set({ successExamples: event.target.value })}
                  description="One example a line (optional)."
                />
                <TextAreaField
                  label="Answers that fail"
                  rows={3}
                  value={form.failureExamples}
                  onChange={(event) => set({ failureExamples: event.target.value })}
                  description="One example a line (optional)."
                />
              </div>
            </>
          ) : (
            <>
              <SelectField
                label="Tool"
                value={form.toolRef}
                onChange={(event) => set({ toolRef: event.target.value })}
                options={toolOptions}
                error={errors.toolRef}
                description="The agent must have this tool; the call is recorded, never run."
              />
              <Switch
                label="The agent must not call it"
                checked={form.verifyAbsence}
                onCheckedChange={(verifyAbsence) => set({ verifyAbsence })}
              />
              {!form.verifyAbsence && (
                <fieldset className="flex flex-col gap-3">
                  <legend className="mb-2 text-sm font-medium">Expected parameters</legend>
                  {form.parameters.length === 0 && (
                    <p className="text-sm text-fg-muted">Any parameters pass until you add one.</p>
                  )}
                  <ul className="flex flex-col gap-3">
                    {form.parameters.map((p, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, by position.
                      <li key={i} className="flex flex-col gap-2 rounded-lg border border-line p-3">
                        <div className="grid gap-2 sm:grid-cols-[1fr_1fr_1.4fr_auto] sm:items-start">
                          <TextField
                            label={`Parameter ${i + 1} path`}
                            value={p.path}
                            placeholder="guests"
                            onChange={(event) => setParameter(i, { path: event.target.value })}
                          />
                          <SelectField
                            label={`Parameter ${i + 1} check`}
                            value={p.check}
                            onChange={(event) =>
                              setParameter(i, { check: event.target.value as ParameterForm['check'] })
                            }
                            options={CHECKS}
                          />
                          {p.check === 'anything' ? (
                            <div />
                          ) : (
                            <TextField
                              label={`Parameter ${i + 1} ${p.check === 'regex' ? 'pattern' : p.check === 'llm' ? 'description' : 'value'}`}
                              value={p.value}
                              onChange={(event) => setParameter(i, { value: event.target.value })}
                            />
                          )}
                          <Button
                            variant="ghost"
                            size="sm"
                            className="self-end sm:mt-7 sm:self-start"
                            aria-label={`Remove parameter ${i + 1}`}
                            onClick={() => set({ parameters: form.parameters.filter((_, at) => at !== i) })}
                          >
                            Remove
                          </Button>
                        </div>
                        {errors[`parameter.${i}`] && (
                          <p role="alert" className="text-sm text-danger">
                            {errors[`parameter.${i}`]}
                          </p>
                        )}
                      </li>
                    ))}
                  </ul>
                  <div>
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() =>
                        set({ parameters: [...form.parameters, { path: '', check: 'exact', value: '' }] })
                      }
                    >
                      Add parameter
                    </Button>
                  </div>
                </fieldset>
              )}
            </>
          )}
          {errors.form && <FormMessage>{errors.form}</FormMessage>}
          <FormActions
            submitLabel={save.isPending ? 'Saving…' : editingId ? 'Save test' : 'Create test'}
            pending={save.isPending}
            onCancel={onClose}
          />
        </form>
      )}
    </Dialog>
  );
}
