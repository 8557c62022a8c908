import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { isHttpError } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button, getButtonClasses } from '../../../ui/button';
import { FormActions } from '../../../ui/form-actions';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { useAddVoice } from '../api/add-voice';
import { buildVoiceLabels, type EditableLabels } from '../voice-labels';
import { type CloneFormErrors, checkCloneForm } from '../voice-rules';
import { SampleFilesField } from './sample-files-field';
import { VoiceDescriptionField } from './voice-description-field';
import { VoiceFormError } from './voice-form-error';
import { VoiceLabelsFields } from './voice-labels-fields';
import { VoiceNameField } from './voice-name-field';

/** The honest line about what a clone is here (issue 7): said once, where a clone is made. */
export const CLONE_HONESTY_NOTE =
  'Parla’s built-in engines approximate a voice by moving a base voice’s pitch and vocal-tract size to match your samples (on the neural model, a blend of its voices nearest your samples); they do not copy accent or articulation.';

export interface InstantCloneFormProps {
  /** The plan allows instant cloning (`can_use_instant_voice_cloning`, from Starter); undefined while it loads. */
  canClone: boolean | undefined;
  onCreated: (voiceId: string) => void;
  onCancel: () => void;
  /** Leaves the clone form for voice design (offered when the plan cannot clone). */
  onDesignInstead: () => void;
}

/**
 * An instant voice clone (history/voices §2 voice lab, §7 `POST /v1/voices/add`): samples, a name, an
 * optional description and labels, background-noise removal, and the rights-and-consent confirmation.
 * On a plan without instant cloning it says so and links to the plans instead of showing the form.
 */
export function InstantCloneForm({ canClone, onCreated, onCancel, onDesignInstead }: InstantCloneFormProps) {
  const id = useId();
  const { toast } = useToast();
  const addVoice = useAddVoice();
  const [files, setFiles] = useState<File[]>([]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [labels, setLabels] = useState<EditableLabels>({ gender: '', accent: '', language: '' });
  const [removeNoise, setRemoveNoise] = useState(false);
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<CloneFormErrors>({});
  const [refusedByPlan, setRefusedByPlan] = useState(false);

  if (canClone === undefined)
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  if (!canClone || refusedByPlan)
    return <CloningNeedsStarter onCancel={onCancel} onDesignInstead={onDesignInstead} />;

  const serverError = addVoice.error;
  const serverCode = isHttpError(serverError) ? serverError.errorType : undefined;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (addVoice.isPending) return;
    const found = checkCloneForm({ files, name, description, consent });
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // The first field with a problem takes the focus, so keyboard and screen reader users land on it.
      const first = (['files', 'name', 'description', 'consent'] as const).find((key) => found[key]);
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    addVoice.mutate(
      { files, name, description, labels: buildVoiceLabels(labels), removeBackgroundNoise: removeNoise },
      {
        onSuccess: (answer) => {
          toast({
            title: 'Voice created',
            description: answer.requires_verification
              ? `${name.trim()} needs a verification before it can be used.`
              : `${name.trim()} is ready in your voices and in every voice picker.`,
            variant: 'success',
          });
          onCreated(answer.voice_id);
        },
        onError: (error) => {
          if (isHttpError(error) && error.errorType === 'voice_cloning_not_allowed') setRefusedByPlan(true);
        },
      },
    );
  };

  return (
    <form className="flex flex-col gap-5" onSubmit={handleSubmit} noValidate aria-label="Instant voice clone">
      <p className="rounded-lg bg-subtle/70 px-3 py-2 text-xs text-fg-muted">{CLONE_HONESTY_NOTE}</p>
      <div id={`${id}-files`} tabIndex={-1} className="focus:outline-none">
        <SampleFilesField
          files={files}
          onChange={(next) => {
            setFiles(next);
            setErrors((current) => ({ ...current, files: undefined }));
          }}
          error={errors.files}
          disabled={addVoice.isPending}
        />
      </div>
      <VoiceNameField
        id={`${id}-name`}
        value={name}
        error={errors.name}
        disabled={addVoice.isPending}
        onChange={(next) => {
          setName(next);
          setErrors((current) => ({ ...current, name: undefined }));
        }}
      />
      <VoiceDescriptionField
        id={`${id}-description`}
        value={description}
        onChange={setDescription}
        disabled={addVoice.isPending}
        placeholder="How the voice sounds and what it suits"
        invalid={Boolean(errors.description)}
      />
      <VoiceLabelsFields value={labels} onChange={setLabels} disabled={addVoice.isPending} />
      <Switch
        label="Remove background noise"
        checked={removeNoise}
        onCheckedChange={setRemoveNoise}
        disabled={addVoice.isPending}
        description="Cleans the samples before the voice is measured. Leave it off for clean studio recordings."
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
            disabled={addVoice.isPending}
            onChange={(event) => {
              setConsent(event.target.checked);
              setErrors((current) => ({ ...current, consent: undefined }));
            }}
            className="mt-0.5 size-4 shrink-0 cursor-pointer accent-accent"
          />
          <span>
            I have the rights and the consent of the person speaking to clone this voice, and I will not use
            it to deceive or harm anyone.
          </span>
        </label>
        {errors.consent && (
          <p id={`${id}-consent-error`} role="alert" className="text-sm text-danger">
            {errors.consent}
          </p>
        )}
      </div>
      {serverError && serverCode !== 'voice_cloning_not_allowed' && <VoiceFormError error={serverError} />}
      <FormActions
        submitLabel={addVoice.isPending ? 'Cloning…' : 'Clone voice'}
        pending={addVoice.isPending}
        onCancel={onCancel}
        className="pt-1"
      />
    </form>
  );
}

/** What a plan without instant cloning sees instead of the form: why, the plans, and what it can do. */
function CloningNeedsStarter({
  onCancel,
  onDesignInstead,
}: {
  onCancel: () => void;
  onDesignInstead: () => void;
}) {
  return (
    <section aria-label="Instant cloning needs the Starter plan" className="flex flex-col gap-4">
      <div className="flex flex-col gap-2 rounded-xl border border-line bg-subtle/60 p-4">
        <h3 className="text-base font-semibold">Instant voice cloning starts with the Starter plan</h3>
        <p className="text-sm text-fg-muted">
          Your plan can design a voice from a description or add voices from the library. Upgrade to Starter
          or above to clone a voice from your own recordings.
        </p>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel}>
          Close
        </Button>
        <Button variant="secondary" onClick={onDesignInstead}>
          Design a voice instead
        </Button>
        <Link to="/app/subscription" className={getButtonClasses('primary', 'md')}>
          See plans
        </Link>
      </div>
    </section>
  );
}
