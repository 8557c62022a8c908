import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@parla/contracts';
import { useId } from 'react';
import { TextField } from '../../../ui/field';
import { Switch } from '../../../ui/switch';

export interface WebhookFieldValues {
  name: string;
  url: string;
  events: WebhookEventType[];
  retryEnabled: boolean;
}

export interface WebhookFieldsProps {
  values: WebhookFieldValues;
  errors: { name?: string | undefined; url?: string | undefined };
  onChange: (values: WebhookFieldValues) => void;
  /** The URL input's id, for the form to move the focus to it when the server refuses the address. */
  urlInputId?: string;
  autoFocus?: boolean;
}

/** The fields of the create and edit forms: name, address, the events it gets, and retries. */
export function WebhookFields({
  values,
  errors,
  onChange,
  urlInputId,
  autoFocus = false,
}: WebhookFieldsProps) {
  const id = useId();
  const toggle = (event: WebhookEventType, on: boolean) =>
    onChange({
      ...values,
      events: on
        ? WEBHOOK_EVENT_TYPES.filter((e) => e === event || values.events.includes(e))
        : values.events.filter((e) => e !== event),
    });
  return (
    <>
      <TextField
        label="Name"
        name="webhook-name"
        autoFocus={autoFocus}
        required
        maxLength={100}
        value={values.name}
        error={errors.name}
        onChange={(event) => onChange({ ...values, name: event.target.value })}
      />
      <TextField
        id={urlInputId}
        label="Endpoint URL"
        name="webhook-url"
        type="url"
        inputMode="url"
        required
        maxLength={2048}
        placeholder="https://example.com/hooks/parla"
        description="Called with a POST for each event. It must answer 2xx within 10 seconds."
        value={values.url}
        error={errors.url}
        onChange={(event) => onChange({ ...values, url: event.target.value })}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-fg">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <label key={event} htmlFor={`${id}-${event}`} className="flex items-start gap-2.5 text-sm">
            <input
              id={`${id}-${event}`}
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-accent"
              checked={values.events.includes(event)}
              onChange={(change) => toggle(event, change.target.checked)}
            />
            <span className="min-w-0">
              <span className="font-medium text-fg">{WEBHOOK_EVENT_LABELS[event].label}</span>{' '}
              <code className="font-mono text-xs text-fg-muted break-all">{event}</code>
              <span className="block text-fg-muted">{WEBHOOK_EVENT_LABELS[event].description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Switch
        label="Retry failed deliveries"
        description="After 30 s, 2 min, 10 min, 1 h and 6 h when the endpoint answers 5xx or 429, or does not answer."
        checked={values.retryEnabled}
        onCheckedChange={(retryEnabled) => onChange({ ...values, retryEnabled })}
      />
    </>
  );
}
