import { type FormEvent, useId, useState } from 'react';
import { inputClasses } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { useCreatePvc } from '../api/create-pvc';
import { checkPvcDetails, type PvcDetailsErrors, pvcLanguages } from '../pvc-rules';
import { VoiceDescriptionField } from './voice-description-field';
import { VoiceFormError } from './voice-form-error';
import { VoiceNameField } from './voice-name-field';

export interface PvcDetailsFormProps {
  onCreated: (voiceId: string) => void;
  onCancel: () => void;
}

const languages = pvcLanguages();

/**
 * The first step of a professional clone (§7 `POST /v1/voices/pvc`): its name, the language it speaks and
 * a description, with the consent of the person whose voice it is.
 */
export function PvcDetailsForm({ onCreated, onCancel }: PvcDetailsFormProps) {
  const id = useId();
  const create = useCreatePvc();
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('en');
  const [description, setDescription] = useState('');
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<PvcDetailsErrors>({});

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const found = checkPvcDetails({ name, language, description, consent });
    setErrors(found);
    const first = (['name', 'language', 'description', 'consent'] as const).find((key) => found[key]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    // The promise, not mutate's callbacks: the plan check above this form changes as the voice lists and
    // the user load again (the slot is now used), and callbacks of an unmounted form never run.
    create
      .mutateAsync({ name, language, description })
      .then((answer) => onCreated(answer.voice_id))
      .catch(() => undefined); // shown from create.error
  };

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={handleSubmit}
      noValidate
      aria-label="Professional voice details"
    >
      <VoiceNameField
        id={`${id}-name`}
        value={name}
        error={errors.name}
        disabled={create.isPending}
        placeholder="My narration voice"
        onChange={(next) => {
          setName(next);
          setErrors((current) => ({ ...current, name: undefined }));
        }}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-language`} className="text-sm font-medium text-fg">
          Language
        </label>
        <select
          id={`${id}-language`}
          className={inputClasses}
          value={language}
          disabled={create.isPending}
          aria-describedby={`${id}-language-note`}
          onChange={(event) => setLanguage(event.target.value)}
        >
          {languages.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name}
            </option>
          ))}
        </select>
        <p id={`${id}-language-note`} className="text-xs text-fg-muted">
          The language of the recordings, and the one the voice will speak.
        </p>
      </div>
      <VoiceDescriptionField
        id={`${id}-description`}
        value={description}
        onChange={setDescription}
        disabled={create.isPending}
        placeholder="How the voice sounds and what it suits"
        invalid={Boolean(errors.description)}
      />
      <div className="flex flex-col gap-1.5">
        <label className="flex cursor-pointer items-start gap-2.5 text-sm text-fg">
          <input
            id={`${id}-consent`}
            type="checkbox"
            checked={consent}
            required
            aria-invalid={errors.consent ? true : undefined}
            aria-describedby={errors.consent ? `${id}-consent-error` : undefined}
            disabled={create.isPending}
            onChange={(event) => {
              setConsent(event.target.checked);
              setErrors((current) => ({ ...current, consent: undefined }));
            }}
            className="mt-0.5 size-4 shrink-0 cursor-pointer accent-accent"
          />
          <span>
            This is my own voice, or I have the consent of its speaker. I will read a sentence aloud to prove
            it before the voice is trained.
          </span>
        </label>
        {errors.consent && (
          <p id={`${id}-consent-error`} role="alert" className="text-sm text-danger">
            {errors.consent}
          </p>
        )}
      </div>
      {create.error && <VoiceFormError error={create.error} />}
      <FormActions
        submitLabel={create.isPending ? 'Creating…' : 'Create and add samples'}
        pending={create.isPending}
        onCancel={onCancel}
      />
    </form>
  );
}
