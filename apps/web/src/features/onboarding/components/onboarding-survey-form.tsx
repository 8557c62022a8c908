import { ONBOARDING_ROLES, ONBOARDING_SOURCES, type OnboardingSurveyRequest } from '@parla/contracts';
import { clsx } from 'clsx';
import { type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { Button } from '../../../ui/button';
import { FormMessage, inputClasses, TextField } from '../../../ui/field';
import { readSurvey, type SurveyDraft, timeZoneOptions } from '../survey-rules';

export interface OnboardingSurveyFormProps {
  initial: SurveyDraft;
  /** Sends the answers; a rejection's message shows above the button. */
  onSubmit: (answers: OnboardingSurveyRequest) => Promise<void>;
  /** The server's message for the last failed send. */
  error?: string | undefined;
  busy: boolean;
}

/** A labelled native select with its note or error, matching TextField. */
function SelectField({
  label,
  value,
  onChange,
  error,
  description,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  description?: string;
  children: ReactNode;
}) {
  const id = useId();
  const note = error ?? description;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      <select
        id={id}
        className={inputClasses}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? `${id}-note` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
      {note && (
        <p
          id={`${id}-note`}
          className={clsx('text-sm', error ? 'text-danger' : 'text-fg-muted')}
          role={error ? 'alert' : undefined}
        >
          {note}
        </p>
      )}
    </div>
  );
}

/**
 * The onboarding survey (accounts §3 onboarding_survey): first name, role and subrole, time zone (the
 * browser's to start with) and how the user heard of Parla. The role is a radio group, so arrow keys move
 * the choice; the contract's schema checks the answers before they are sent.
 */
export function OnboardingSurveyForm({ initial, onSubmit, error, busy }: OnboardingSurveyFormProps) {
  const [draft, setDraft] = useState<SurveyDraft>(initial);
  const [submitted, setSubmitted] = useState(false);
  const roleName = useId();
  const roleErrorId = useId();
  const zones = useMemo(() => timeZoneOptions(initial.timezone), [initial.timezone]);
  const checked = readSurvey(draft);
  const errors = submitted && !checked.ok ? checked.errors : {};
  const role = ONBOARDING_ROLES.find((entry) => entry.id === draft.role);

  const set = (patch: Partial<SurveyDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy || !checked.ok) return;
    await onSubmit(checked.answers);
  };

  return (
    <form className="flex flex-col gap-6" onSubmit={handleSubmit} noValidate>
      <TextField
        label="First name"
        name="given-name"
        autoComplete="given-name"
        required
        maxLength={100}
        value={draft.first_name}
        error={errors.first_name}
        onChange={(event) => set({ first_name: event.target.value })}
      />

      <fieldset className="flex flex-col gap-2" aria-describedby={errors.role ? roleErrorId : undefined}>
        <legend className="mb-2 text-sm font-medium text-fg">What describes you best?</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {ONBOARDING_ROLES.map((option) => {
            const selected = option.id === draft.role;
            return (
              <label
                key={option.id}
                className={clsx(
                  'flex cursor-pointer items-center gap-3 rounded-lg border px-3 py-2.5 text-sm transition-colors',
                  'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
                  selected
                    ? 'border-accent bg-accent/10 text-fg'
                    : 'border-line bg-surface text-fg-muted hover:bg-subtle hover:text-fg',
                )}
              >
                <input
                  type="radio"
                  name={roleName}
                  value={option.id}
                  checked={selected}
                  onChange={() => set({ role: option.id, subrole: '' })}
                  className="size-4 accent-accent"
                />
                <span className="font-medium">{option.label}</span>
              </label>
            );
          })}
        </div>
        {errors.role && (
          <p id={roleErrorId} className="text-sm text-danger" role="alert">
            {errors.role}
          </p>
        )}
      </fieldset>

      {role && role.subroles.length > 0 && (
        <SelectField
          label="Which of these fits? (optional)"
          value={draft.subrole}
          error={errors.subrole}
          onChange={(subrole) => set({ subrole })}
        >
          <option value="">Choose one</option>
          {role.subroles.map((subrole) => (
            <option key={subrole.id} value={subrole.id}>
              {subrole.label}
            </option>
          ))}
        </SelectField>
      )}

      <SelectField
        label="Time zone"
        value={draft.timezone}
        error={errors.timezone}
        description="Filled in from your browser."
        onChange={(timezone) => set({ timezone })}
      >
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </SelectField>

      <SelectField
        label="How did you hear about us? (optional)"
        value={draft.source}
        error={errors.source}
        onChange={(source) => set({ source })}
      >
        <option value="">Choose one</option>
        {ONBOARDING_SOURCES.map((source) => (
          <option key={source.id} value={source.id}>
            {source.label}
          </option>
        ))}
      </SelectField>

      {error && <FormMessage>{error}</FormMessage>}
      <Button type="submit" aria-disabled={busy} className="self-start">
        {busy ? 'Saving…' : 'Continue'}
      </Button>
    </form>
  );
}
