import {
  type ConvAiSettings,
  ConversationInitiationClientDataWebhook,
  type PatchConvAiSettings,
  RAG_RETENTION_DAYS,
} from '@parla/contracts';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { NumberField, SelectField } from '../../../ui/editor-fields';
import { inputClasses, TextField } from '../../../ui/field';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { useWebhooks } from '../../webhooks';
import { useConvaiSettings, useUpdateConvaiSettings } from '../api/convai-settings';
import { useSecrets } from '../api/list-secrets';

interface HeaderRow {
  key: number;
  name: string;
  /** '' for a typed value, else the secret's id. */
  secretId: string;
  value: string;
}

interface Draft {
  url: string;
  headers: HeaderRow[];
  postCallWebhookId: string;
  excludeTranscript: boolean;
  ragRetentionDays: number;
}

let nextKey = 1;

function draftOf(settings: ConvAiSettings): Draft {
  const hook = settings.conversation_initiation_client_data_webhook;
  return {
    url: hook?.url ?? '',
    headers: Object.entries(hook?.request_headers ?? {}).map(([name, value]) => ({
      key: nextKey++,
      name,
      secretId: typeof value === 'string' ? '' : value.secret_id,
      value: typeof value === 'string' ? value : '',
    })),
    postCallWebhookId: settings.webhooks.post_call_webhook_id ?? '',
    excludeTranscript: settings.webhooks.exclude_transcript,
    ragRetentionDays: settings.rag_retention_period_days,
  };
}

/** The PATCH body of a draft, or the first problem with it (checked as the server checks it). */
export function settingsPatchOf(draft: Draft): { body: PatchConvAiSettings } | { error: string } {
  let hook: PatchConvAiSettings['conversation_initiation_client_data_webhook'] = null;
  if (draft.url.trim() !== '') {
    const headers: Record<string, string | { secret_id: string }> = {};
    for (const row of draft.headers) {
      const name = row.name.trim();
      if (!name && !row.value && !row.secretId) continue;
      if (!name) return { error: 'Give each header a name, or remove it.' };
      if (name in headers) return { error: `The header ${name} is listed twice.` };
      headers[name] = row.secretId ? { secret_id: row.secretId } : row.value;
    }
    const parsed = ConversationInitiationClientDataWebhook.safeParse({
      url: draft.url.trim(),
      request_headers: headers,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path[0] === 'url' ? 'The URL' : `The header ${String(issue?.path[1] ?? '')}`;
      return { error: `${where} ${issue?.message ?? 'is not valid'}.` };
    }
    hook = parsed.data;
  }
  const days = draft.ragRetentionDays;
  if (!Number.isInteger(days) || days < RAG_RETENTION_DAYS.min || days > RAG_RETENTION_DAYS.max)
    return {
      error: `Keep the RAG index ${RAG_RETENTION_DAYS.min} to ${RAG_RETENTION_DAYS.max} days (a whole number).`,
    };
  return {
    body: {
      conversation_initiation_client_data_webhook: hook,
      webhooks: {
        post_call_webhook_id: draft.postCallWebhookId || null,
        exclude_transcript: draft.excludeTranscript,
      },
      rag_retention_period_days: days,
    },
  };
}

/**
 * The workspace's Conversational AI settings (`/v1/convai/settings`): the initiation webhook agents may
 * ask for dynamic variables, which webhook gets each ended conversation, and the RAG retention the API
 * keeps (which does nothing here, said so under it).
 */
export function ConvaiSettingsForm() {
  const id = useId();
  const settings = useConvaiSettings();
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <div className="flex max-w-2xl flex-col gap-1">
        <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
          Workspace settings
        </h2>
        <p className="text-sm text-fg-muted">Webhooks and retention for every agent of the workspace.</p>
      </div>
      {settings.isPending && (
        <div
          role="status"
          aria-busy="true"
          aria-label="Loading the settings"
          className="rounded-xl border border-line p-4"
        >
          <Skeleton className="h-40 w-full" />
        </div>
      )}
      {settings.isError && <LoadError error={settings.error} onRetry={() => void settings.refetch()} />}
      {settings.isSuccess && <SettingsEditor settings={settings.data} />}
    </section>
  );
}

function SettingsEditor({ settings }: { settings: ConvAiSettings }) {
  const id = useId();
  const { toast } = useToast();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [error, setError] = useState<string>();
  const update = useUpdateConvaiSettings();
  const webhooks = useWebhooks();
  const secrets = useSecrets();
  // The kept settings changed (saved here, or loaded again): the form shows them.
  useEffect(() => setDraft(draftOf(settings)), [settings]);

  const edit = (change: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setError(undefined);
  };
  const editHeader = (key: number, change: Partial<HeaderRow>) =>
    edit({ headers: draft.headers.map((h) => (h.key === key ? { ...h, ...change } : h)) });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const patch = settingsPatchOf(draft);
    if ('error' in patch) {
      setError(patch.error);
      return;
    }
    update.mutate(patch.body, {
      onSuccess: () => toast({ title: 'Settings saved', variant: 'success' }),
      onError: (failure) => setError(getToastMessage(failure)),
    });
  };

  const hookOptions = [
    { value: '', label: 'Every webhook subscribed to post-call events' },
    ...(webhooks.data?.webhooks ?? []).map((w) => ({
      value: w.webhook_id,
      label: `${w.name}${w.is_disabled || w.is_auto_disabled ? ' (switched off)' : ''}`,
    })),
  ];
  // A chosen webhook deleted since still shows, so saving does not silently change it.
  if (draft.postCallWebhookId && !hookOptions.some((o) => o.value === draft.postCallWebhookId))
    hookOptions.push({ value: draft.postCallWebhookId, label: 'A webhook that no longer exists' });
  const secretOptions = [
    { value: '', label: 'Typed value' },
    ...(secrets.data?.secrets ?? []).map((s) => ({ value: s.secret_id, label: `Secret: ${s.name}` })),
  ];

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      aria-describedby={error ? `${id}-error` : undefined}
      className="flex flex-col gap-5 rounded-xl border border-line bg-surface p-4 sm:p-5"
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-base font-semibold">Conversation initiation webhook</legend>
        <p className="text-sm text-fg-muted">
          Agents that turn on “Fetch initiation data from the workspace’s webhook” (Security tab) call this
          URL when a conversation starts, and use the dynamic variables and overrides it answers. It must
          answer within 5 seconds, or the conversation ends with an error.
        </p>
        <TextField
          label="Webhook URL"
          type="url"
          inputMode="url"
          placeholder="https://api.example.com/conversation-start"
          description="Leave empty for none."
          value={draft.url}
          onChange={(event) => edit({ url: event.target.value })}
        />
        {draft.url.trim() !== '' && (
          <div className="flex flex-col gap-2">
            <span className="text-sm font-medium" id={`${id}-headers`}>
              Request headers
            </span>
            {draft.headers.length === 0 && <p className="text-sm text-fg-muted">No headers.</p>}
            <ul aria-labelledby={`${id}-headers`} className="flex flex-col gap-2">
              {draft.headers.map((row, index) => (
                <li key={row.key} className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
                  <input
                    aria-label={`Header ${index + 1} name`}
                    className={inputClasses}
                    placeholder="Authorization"
                    value={row.name}
                    onChange={(event) => editHeader(row.key, { name: event.target.value })}
                  />
                  <select
                    aria-label={`Header ${index + 1} source`}
                    className={inputClasses}
                    value={row.secretId}
                    onChange={(event) => editHeader(row.key, { secretId: event.target.value })}
                  >
                    {secretOptions.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                  {row.secretId ? (
                    <span className="flex h-10 items-center text-sm text-fg-muted">Sent from the secret</span>
                  ) : (
                    <input
                      aria-label={`Header ${index + 1} value`}
                      className={inputClasses}
                      value={row.value}
                      onChange={(event) => editHeader(row.key, { value: event.target.value })}
                    />
                  )}
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove header ${index + 1}`}
                    onClick={() => edit({ headers: draft.headers.filter((h) => h.key !== row.key) })}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
            <div>
              <Button
                variant="secondary"
                size="sm"
                onClick={() =>
                  edit({ headers: [...draft.headers, { key: nextKey++, name: '', secretId: '', value: '' }] })
                }
              >
                Add header
              </Button>
            </div>
          </div>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-3 border-t border-line pt-5">
        <legend className="sr-only">Post-call webhook</legend>
        <SelectField
          label="Post-call webhook"
          description={
            webhooks.isError
              ? 'The workspace’s webhooks could not be loaded.'
              : 'The webhook that receives each ended conversation, with its transcript and analysis. Add webhooks under Developers → Webhooks.'
          }
          options={hookOptions}
          value={draft.postCallWebhookId}
          onChange={(event) => edit({ postCallWebhookId: event.target.value })}
        />
        <Switch
          label="Leave the transcript out"
          description="Send the post-call event without the conversation’s transcript."
          checked={draft.excludeTranscript}
          onCheckedChange={(excludeTranscript) => edit({ excludeTranscript })}
        />
      </fieldset>
      <fieldset className="flex flex-col gap-3 border-t border-line pt-5">
        <legend className="sr-only">Retention</legend>
        <NumberField
          label="RAG index retention (days)"
          value={draft.ragRetentionDays}
          onValueChange={(ragRetentionDays) => edit({ ragRetentionDays })}
          description={`Kept for the API (${RAG_RETENTION_DAYS.min}–${RAG_RETENTION_DAYS.max} days) but it changes nothing here: the knowledge base’s full-text index lives as long as its document. Conversations are deleted after each agent’s own retention (Security tab).`}
          className="max-w-xs"
        />
      </fieldset>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button
          variant="secondary"
          disabled={update.isPending}
          onClick={() => {
            setDraft(draftOf(settings));
            setError(undefined);
          }}
        >
          Discard changes
        </Button>
        <Button type="submit" aria-busy={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save settings'}
        </Button>
      </div>
    </form>
  );
}
