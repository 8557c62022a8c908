import type { WorkspaceWebhookResponse } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { getToastMessage, readFieldError } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage } from '../../../ui/field';
import { useCreateWebhook } from '../api/create-webhook';
import { useUpdateWebhook } from '../api/update-webhook';
import { checkWebhookForm } from '../webhook-rules';
import { WebhookFields, type WebhookFieldValues } from './webhook-fields';
import { WebhookSecretReveal } from './webhook-secret-reveal';

const EMPTY: WebhookFieldValues = { name: '', url: '', events: ['speech_to_text'], retryEnabled: true };

function valuesOf(webhook: WorkspaceWebhookResponse): WebhookFieldValues {
  return {
    name: webhook.name,
    url: webhook.webhook_url,
    events: webhook.events,
    retryEnabled: webhook.retry_enabled,
  };
}

/**
 * Adds a webhook (then shows its signing secret once, in the same dialog) or, given `webhook`, changes its
 * name, address, events and retries. Open while `open`; closing empties it.
 */
export function WebhookFormDialog({
  open,
  webhook,
  onClose,
}: {
  open: boolean;
  webhook?: WorkspaceWebhookResponse | undefined;
  onClose: () => void;
}) {
  const { toast } = useToast();
  const urlInputId = useId();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [values, setValues] = useState<WebhookFieldValues>(webhook ? valuesOf(webhook) : EMPTY);
  const [errors, setErrors] = useState<{ name?: string; url?: string }>({});
  const [failure, setFailure] = useState<string>();
  /** The new webhook's secret, in this dialog only: the server never shows it again. */
  const [secret, setSecret] = useState<string>();
  const pending = create.isPending || update.isPending;

  const close = () => {
    setValues(EMPTY);
    setErrors({});
    setFailure(undefined);
    setSecret(undefined);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const problems = checkWebhookForm(values);
    setErrors(problems);
    if (problems.name || problems.url) return;
    setFailure(undefined);
    const onError = (caught: unknown) => {
      // A refused address (a private one the operator has not allowed, a host that does not resolve…) is
      // said under the URL field and the focus goes there, so it is in sight and read out (issue 26 item 7).
      const urlProblem = readFieldError(caught, 'webhook_url');
      if (urlProblem) {
        setErrors({ url: urlProblem });
        requestAnimationFrame(() => {
          const input = document.getElementById(urlInputId);
          input?.focus({ preventScroll: true });
          // The whole field in sight: its label, the address and the message under it.
          input?.parentElement?.scrollIntoView?.({ block: 'nearest' });
        });
        return;
      }
      setFailure(getToastMessage(caught));
    };
    if (webhook) {
      update.mutate(
        {
          webhookId: webhook.webhook_id,
          body: {
            name: values.name.trim(),
            events: values.events,
            retry_enabled: values.retryEnabled,
            ...(values.url.trim() !== webhook.webhook_url ? { webhook_url: values.url.trim() } : {}),
          },
        },
        {
          onSuccess: () => {
            toast({ title: `“${values.name.trim()}” was saved.`, variant: 'success' });
            close();
          },
          onError,
        },
      );
      return;
    }
    create.mutate(
      {
        settings: { auth_type: 'hmac', name: values.name.trim(), webhook_url: values.url.trim() },
        events: values.events,
      },
      {
        onSuccess: (answer) => {
          setSecret(answer.webhook_secret);
          // Retries are on for a new webhook; the form's choice is applied when it was switched off.
          if (!values.retryEnabled) {
            update.mutate({ webhookId: answer.webhook_id, body: { retry_enabled: false } });
          }
        },
        onError,
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      size="lg"
      title={secret ? 'Your webhook’s signing secret' : webhook ? `Edit “${webhook.name}”` : 'Add webhook'}
      description={
        secret
          ? 'Copy it now: for your safety it is not shown again.'
          : webhook
            ? undefined
            : 'Parla sends a signed POST to this address for each event you choose.'
      }
      footer={secret ? <Button onClick={close}>Done</Button> : undefined}
    >
      {secret ? (
        <WebhookSecretReveal secret={secret} />
      ) : (
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <WebhookFields
            values={values}
            errors={errors}
            onChange={(next) => {
              // An error about the address holds until the address changes.
              if (next.url !== values.url && errors.url) setErrors({ ...errors, url: undefined });
              setValues(next);
            }}
            urlInputId={urlInputId}
            autoFocus
          />
          {failure && <FormMessage>{failure}</FormMessage>}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" aria-disabled={pending}>
              {pending ? 'Saving…' : webhook ? 'Save' : 'Add webhook'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
