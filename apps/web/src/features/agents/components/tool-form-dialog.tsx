import type { StoredSecret, ToolResponse } from '@parla/contracts';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { getToastMessage, isHttpError } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { SelectField, TextAreaField } from '../../../ui/editor-fields';
import { FormMessage, TextField } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { SegmentedControl } from '../../../ui/segmented-control';
import { Switch } from '../../../ui/switch';
import { useCreateTool } from '../api/create-tool';
import { useUpdateTool } from '../api/update-tool';
import {
  checkToolForm,
  describeFixed,
  emptyToolForm,
  type HeaderRow,
  PARAM_TYPES,
  type ParamRow,
  readToolFieldErrors,
  type ToolForm,
  type ToolFormErrors,
  toolFormOf,
  toolRequestOf,
} from '../tool-form-rules';

export interface ToolFormDialogProps {
  /** `new` to create a tool, a tool to edit it, null when closed. */
  tool: ToolResponse | 'new' | null;
  secrets: readonly StoredSecret[];
  onClose: () => void;
  onSaved: (tool: ToolResponse) => void;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function ErrorLine({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="text-sm text-danger">
      {text}
    </p>
  );
}

/** Creates or edits a webhook or client tool; the contract checks it before it is sent. */
export function ToolFormDialog({ tool, secrets, onClose, onSaved }: ToolFormDialogProps) {
  const id = useId();
  const editing = tool !== null && tool !== 'new' ? tool : null;
  const [form, setForm] = useState<ToolForm>(emptyToolForm());
  const [errors, setErrors] = useState<ToolFormErrors>({});
  const create = useCreateTool();
  const update = useUpdateTool();
  const pending = create.isPending || update.isPending;

  useEffect(() => {
    if (tool === null) return;
    setForm(tool === 'new' ? emptyToolForm() : toolFormOf(tool));
    setErrors({});
  }, [tool]);

  const set = (patch: Partial<ToolForm>) => setForm((f) => ({ ...f, ...patch }));
  const setHeader = (index: number, patch: Partial<HeaderRow>) =>
    set({ headers: form.headers.map((h, at) => (at === index ? { ...h, ...patch } : h)) });
  const setParam = (index: number, patch: Partial<ParamRow>) =>
    set({ params: form.params.map((p, at) => (at === index ? { ...p, ...patch } : p)) });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const found = checkToolForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = toolRequestOf(form);
    const handlers = {
      onSuccess: (saved: ToolResponse) => onSaved(saved),
      onError: (error: unknown) => {
        const fields = isHttpError(error) && error.status === 422 ? readToolFieldErrors(error.data) : {};
        setErrors(Object.keys(fields).length > 0 ? fields : { form: getToastMessage(error) });
      },
    };
    if (editing) update.mutate({ toolId: editing.id, body }, handlers);
    else create.mutate(body, handlers);
  };

  const webhook = form.kind === 'webhook';
  return (
    <Dialog
      open={tool !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
      title={editing ? `Edit ${editing.tool_config.name}` : 'New tool'}
      description="The agent decides when to use a tool from its name and description, and fills in the parameters you describe."
      size="2xl"
    >
      <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-4">
        {!editing && (
          <SegmentedControl
            label="Kind of tool"
            value={form.kind}
            onChange={(kind) => set({ kind })}
            options={[
              { value: 'webhook', label: 'Webhook', note: 'the server calls a URL' },
              { value: 'client', label: 'Client', note: 'your page runs it' },
            ]}
          />
        )}
        <TextField
          label="Name"
          value={form.name}
          maxLength={64}
          placeholder="look_up_order"
          onChange={(event) => set({ name: event.target.value })}
          description="Letters, digits, _ and -: the name the LLM calls."
          error={errors.name}
        />
        <TextAreaField
          label="Description"
          rows={2}
          value={form.description}
          placeholder="Looks up an order’s status by its number. Use it when the caller asks where their order is."
          onChange={(event) => set({ description: event.target.value })}
          error={errors.description}
        />
        {webhook && (
          <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
            <SelectField
              label="Method"
              value={form.method}
              options={METHODS.map((m) => ({ value: m, label: m }))}
              onChange={(event) => set({ method: event.target.value as ToolForm['method'] })}
            />
            <TextField
              label="URL"
              value={form.url}
              placeholder="https://api.example.com/orders/{order_id}"
              onChange={(event) => set({ url: event.target.value })}
              description="A {name} in the URL is a path parameter: describe it below."
              error={errors.url}
            />
          </div>
        )}
        {webhook && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">Headers</legend>
            {form.headers.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; their names change as typed.
              <div key={index} className="flex flex-wrap items-end gap-2">
                <TextField
                  label={`Header ${index + 1} name`}
                  className="min-w-0 flex-[1_1_9rem]"
                  value={header.name}
                  placeholder="Authorization"
                  onChange={(event) => setHeader(index, { name: event.target.value })}
                />
                <SelectField
                  label={`Header ${index + 1} source`}
                  className="w-32"
                  value={header.kind}
                  options={[
                    { value: 'text', label: 'Text' },
                    { value: 'secret', label: 'Secret' },
                    { value: 'variable', label: 'Variable' },
                  ]}
                  onChange={(event) =>
                    setHeader(index, { kind: event.target.value as HeaderRow['kind'], value: '' })
                  }
                />
                {header.kind !== 'secret' ? (
                  <TextField
                    label={
                      header.kind === 'variable'
                        ? `Header ${index + 1} variable`
                        : `Header ${index + 1} value`
                    }
                    placeholder={header.kind === 'variable' ? 'customer_id' : undefined}
                    className="min-w-0 flex-[2_1_12rem]"
                    value={header.value}
                    onChange={(event) => setHeader(index, { value: event.target.value })}
                  />
                ) : (
                  <SelectField
                    label={`Header ${index + 1} secret`}
                    className="min-w-0 flex-[2_1_12rem]"
                    value={header.value}
                    options={[
                      { value: '', label: secrets.length === 0 ? 'No secrets yet' : 'Choose a secret' },
                      ...secrets.map((s) => ({ value: s.secret_id, label: s.name })),
                    ]}
                    onChange={(event) => setHeader(index, { value: event.target.value })}
                  />
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove header ${index + 1}`}
                  onClick={() => set({ headers: form.headers.filter((_, at) => at !== index) })}
                >
                  Remove
                </Button>
              </div>
            ))}
            <ErrorLine id={`${id}-headers`} text={errors.headers} />
            <div>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => set({ headers: [...form.headers, { name: '', kind: 'text', value: '' }] })}
              >
                Add header
              </Button>
            </div>
            <p className="text-xs text-fg-muted">
              A secret header sends a workspace secret (Settings): the server puts its value in at call time
              and never shows it.
            </p>
          </fieldset>
        )}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Parameters</legend>
          {form.params.map((param, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; their names change as typed.
            <div key={index} className="flex flex-col gap-2 rounded-lg border border-line p-3">
              <div className="flex flex-wrap items-end gap-2">
                <TextField
                  label={`Parameter ${index + 1} name`}
                  className="min-w-0 flex-[1_1_9rem]"
                  value={param.name}
                  onChange={(event) => setParam(index, { name: event.target.value })}
                />
                {webhook && (
                  <SelectField
                    label={`Parameter ${index + 1} goes in`}
                    className="w-32"
                    value={param.location}
                    options={[
                      { value: 'path', label: 'Path' },
                      { value: 'query', label: 'Query' },
                      { value: 'body', label: 'Body' },
                    ]}
                    onChange={(event) =>
                      setParam(index, { location: event.target.value as ParamRow['location'] })
                    }
                  />
                )}
                <SelectField
                  label={`Parameter ${index + 1} type`}
                  className="w-32"
                  value={param.type}
                  options={PARAM_TYPES.map((t) => ({ value: t, label: t }))}
                  onChange={(event) => setParam(index, { type: event.target.value as ParamRow['type'] })}
                />
              </div>
              {param.fixed ? (
                <p className="text-sm text-fg-muted">
                  Filled with {describeFixed(param.fixed)}: kept as it is.
                </p>
              ) : (
                <TextField
                  label={`Parameter ${index + 1} description`}
                  value={param.description}
                  placeholder="The order number the caller reads out"
                  onChange={(event) => setParam(index, { description: event.target.value })}
                />
              )}
              <div className="flex flex-wrap items-center justify-between gap-2">
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-accent"
                    checked={param.required || param.location === 'path'}
                    disabled={param.location === 'path'}
                    onChange={(event) => setParam(index, { required: event.target.checked })}
                  />
                  Required
                </label>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove parameter ${index + 1}`}
                  onClick={() => set({ params: form.params.filter((_, at) => at !== index) })}
                >
                  Remove
                </Button>
              </div>
            </div>
          ))}
          <ErrorLine id={`${id}-params`} text={errors.params} />
          <div>
            <Button
              variant="secondary"
              size="sm"
              onClick={() =>
                set({
                  params: [
                    ...form.params,
                    {
                      name: '',
                      location: form.method === 'GET' || form.method === 'DELETE' ? 'query' : 'body',
                      type: 'string',
                      description: '',
                      required: true,
                    },
                  ],
                })
              }
            >
              Add parameter
            </Button>
          </div>
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Response timeout (seconds)"
            inputMode="numeric"
            value={form.timeout}
            onChange={(event) => set({ timeout: event.target.value })}
            error={errors.timeout}
          />
        </div>
        {!webhook && (
          <Switch
            label="Wait for the result"
            description="The agent waits for your page’s answer before it speaks again."
            checked={form.expectsResponse}
            onCheckedChange={(expectsResponse) => set({ expectsResponse })}
          />
        )}
        <Switch
          label="No interruptions while it runs"
          checked={form.disableInterruptions}
          onCheckedChange={(disableInterruptions) => set({ disableInterruptions })}
        />
        {errors.form && <FormMessage>{errors.form}</FormMessage>}
        <FormActions
          submitLabel={pending ? 'Saving…' : editing ? 'Save tool' : 'Create tool'}
          pending={pending}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
