import {
  describeVoice,
  VOICE_DESCRIPTION_LIMIT,
  VOICE_DESCRIPTION_MIN,
  VoiceDesignBody,
} from '@parla/contracts';
import { clsx } from 'clsx';
import { type FormEvent, useId, useState } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { FormMessage, textareaClasses } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { SpinnerIcon } from '../../../ui/icons';
import { useCreateDesignedVoice } from '../api/create-designed-voice';
import { useDesignVoice } from '../api/design-voice';
import { usePreviewPlayer } from '../use-preview-player';
import { designPreviewPlayback } from '../voice-playback';
import { PreviewButton } from './preview-button';
import { VoiceFormError } from './voice-form-error';
import { VoiceNameField } from './voice-name-field';

export interface VoiceDesignFormProps {
  onCreated: (voiceId: string) => void;
  onCancel: () => void;
}

/** Why a description cannot be sent (the contract's bounds, history/voices voice design), or undefined. */
function checkDescription(text: string): string | undefined {
  const parsed = VoiceDesignBody.shape.voice_description.safeParse(text);
  if (parsed.success) return undefined;
  return text.trim().length < VOICE_DESCRIPTION_MIN
    ? (parsed.error.issues[0]?.message ??
        `Describe the voice in at least ${VOICE_DESCRIPTION_MIN} characters.`)
    : `Keep the description to ${VOICE_DESCRIPTION_LIMIT} characters.`;
}

/** Seconds as `0:07`. */
function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Voice design (history/voices §7 text-to-voice): a description becomes three previews to listen to; the
 * one picked is saved under a name. In the languages the neural model speaks, each preview is a blend of
 * its voices chosen by the description; elsewhere a design starts from one of Parla's voices and moves its
 * pitch, vocal tract and pace. Either way the words the server understood are shown as they are typed.
 */
export function VoiceDesignForm({ onCreated, onCancel }: VoiceDesignFormProps) {
  const id = useId();
  const { toast } = useToast();
  const preview = usePreviewPlayer();
  const design = useDesignVoice();
  const create = useCreateDesignedVoice();
  const [description, setDescription] = useState('');
  const [descriptionError, setDescriptionError] = useState<string | undefined>();
  /** The description the shown previews were made from (saved with the voice). */
  const [designedFrom, setDesignedFrom] = useState('');
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [played, setPlayed] = useState<ReadonlySet<string>>(new Set());
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();

  const previews = design.data?.previews ?? [];
  const chosen = previews.find((each) => each.generated_voice_id === chosenId) ?? previews[0];
  const understood = describeVoice(description).understood;
  const busy = design.isPending || create.isPending;

  const handleGenerate = (event: FormEvent) => {
    event.preventDefault();
    if (design.isPending) return;
    const problem = checkDescription(description);
    setDescriptionError(problem);
    if (problem) {
      document.getElementById(`${id}-description`)?.focus();
      return;
    }
    const text = description.trim();
    design.mutate(text, {
      onSuccess: (answer) => {
        setDesignedFrom(text);
        setChosenId(answer.previews[0]?.generated_voice_id ?? null);
        setPlayed(new Set());
      },
    });
  };

  const handleSave = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || busy) return;
    if (name.trim() === '') {
      setNameError('Give the voice a name.');
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    create.mutate(
      {
        name,
        description: designedFrom,
        generatedVoiceId: chosen.generated_voice_id,
        playedNotSelected: [...played].filter((each) => each !== chosen.generated_voice_id),
      },
      {
        onSuccess: (voice) => {
          toast({
            title: 'Voice saved',
            description: `${voice.name} is ready in your voices and in every voice picker.`,
            variant: 'success',
          });
          onCreated(voice.voice_id);
        },
      },
    );
  };

  return (
    <div className="flex flex-col gap-5">
      <form
        className="flex flex-col gap-3"
        onSubmit={handleGenerate}
        noValidate
        aria-label="Voice description"
      >
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-description`} className="text-sm font-medium text-fg">
            Describe the voice
          </label>
          <textarea
            id={`${id}-description`}
            rows={3}
            value={description}
            maxLength={VOICE_DESCRIPTION_LIMIT}
            placeholder="A deep, calm male voice with a British accent, slow and warm, for bedtime stories"
            aria-invalid={descriptionError ? true : undefined}
            aria-describedby={`${id}-description-note`}
            disabled={design.isPending}
            onChange={(event) => {
              setDescription(event.target.value);
              setDescriptionError(undefined);
            }}
            className={textareaClasses}
          />
          <div id={`${id}-description-note`} className="flex justify-between gap-3 text-xs">
            <span
              className={descriptionError ? 'text-sm text-danger' : 'text-fg-muted'}
              role={descriptionError ? 'alert' : undefined}
            >
              {descriptionError ??
                (understood.length > 0
                  ? `Understood: ${understood.join(', ')}`
                  : `At least ${VOICE_DESCRIPTION_MIN} characters. Name a gender, an age, an accent, the pitch and the pace.`)}
            </span>
            <span className="shrink-0 text-fg-muted tabular-nums">
              {description.length} / {VOICE_DESCRIPTION_LIMIT}
            </span>
          </div>
        </div>
        <p className="text-xs text-fg-muted">
          Where the neural model speaks the language, each preview blends several of its voices chosen by the
          words above (the same words give the same three voices); elsewhere a design starts from one of
          Parla’s voices and moves its pitch, vocal-tract size and pace. It does not invent a new timbre.
        </p>
        {design.isError && <FormMessage>{design.error.message}</FormMessage>}
        <div className="flex flex-wrap justify-end gap-2">
          {previews.length === 0 && (
            <Button variant="secondary" onClick={onCancel} disabled={design.isPending}>
              Cancel
            </Button>
          )}
          <Button
            type="submit"
            variant={previews.length > 0 ? 'secondary' : 'primary'}
            aria-busy={design.isPending}
            aria-disabled={design.isPending || undefined}
          >
            {design.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            {design.isPending ? 'Generating previews…' : previews.length > 0 ? 'Generate again' : 'Generate'}
          </Button>
        </div>
      </form>

      {previews.length > 0 && (
        <form
          className="flex flex-col gap-4 border-t border-line pt-5"
          onSubmit={handleSave}
          noValidate
          aria-label="Save the voice"
        >
          <fieldset className="flex flex-col gap-2" disabled={busy}>
            <legend className="mb-2 text-sm font-medium text-fg">Pick a preview</legend>
            <ul className="grid grid-cols-1 gap-2 sm:grid-cols-3" aria-label="Previews">
              {previews.map((each, index) => {
                const title = `Preview ${index + 1}`;
                const selected = each.generated_voice_id === chosen?.generated_voice_id;
                return (
                  <li
                    key={each.generated_voice_id}
                    className={clsx(
                      'flex items-center gap-3 rounded-xl border p-3 transition-colors',
                      selected ? 'border-accent bg-accent/5 ring-1 ring-accent/40' : 'border-line bg-surface',
                    )}
                  >
                    <PreviewButton
                      label={title}
                      playing={preview.isPlaying(each.generated_voice_id)}
                      onToggle={() => {
                        setPlayed((current) => new Set(current).add(each.generated_voice_id));
                        preview.toggle(
                          designPreviewPlayback(each, {
                            title: `Voice design · ${title}`,
                            text: design.data?.text ?? '',
                          }),
                        );
                      }}
                    />
                    <label className="flex min-w-0 flex-1 cursor-pointer items-center justify-between gap-2 text-sm">
                      <span className="flex flex-col">
                        <span className="font-medium">{title}</span>
                        <span className="text-xs text-fg-muted tabular-nums">
                          {formatSeconds(each.duration_secs)}
                        </span>
                      </span>
                      <input
                        type="radio"
                        name={`${id}-preview`}
                        value={each.generated_voice_id}
                        checked={selected}
                        onChange={() => setChosenId(each.generated_voice_id)}
                        className="size-4 cursor-pointer accent-accent"
                      />
                    </label>
                  </li>
                );
              })}
            </ul>
            {design.data?.text && <p className="text-xs text-fg-muted">They read: “{design.data.text}”</p>}
          </fieldset>
          <VoiceNameField
            id={`${id}-name`}
            value={name}
            error={nameError}
            disabled={busy}
            onChange={(next) => {
              setName(next);
              setNameError(undefined);
            }}
          />
          {create.isError && <VoiceFormError error={create.error} />}
          <FormActions
            submitLabel={create.isPending ? 'Saving…' : 'Save voice'}
            pending={create.isPending}
            submitDisabled={busy}
            onCancel={onCancel}
          />
        </form>
      )}
    </div>
  );
}
