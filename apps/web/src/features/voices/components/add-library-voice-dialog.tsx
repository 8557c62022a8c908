import { type LibraryVoice, VOICE_NAME_MAX } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../../app/toasts/toast-provider';
import { isHttpError } from '../../../lib/http-error';
import { Button, getButtonClasses } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';
import { useAddSharedVoice } from '../api/add-shared-voice';
import { isPlanLimitError } from '../voice-rules';

export interface AddLibraryVoiceDialogProps {
  /** The library voice to add; the dialog is open while there is one. */
  voice: LibraryVoice | null;
  onClose: () => void;
  onAdded?: (voiceId: string) => void;
}

/**
 * Adds a library voice to the workspace's voices under a name (history/voices §7 "Add from shared voice
 * (body new_name)"), its own name to start with.
 */
export function AddLibraryVoiceDialog({ voice, onClose, onAdded }: AddLibraryVoiceDialogProps) {
  return (
    <Dialog
      open={voice !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={voice ? `Add ${voice.name} to your voices` : 'Add voice'}
      description="It joins your voices and every voice picker. It counts towards your plan’s custom voices."
    >
      {voice && (
        <AddLibraryVoiceForm key={voice.voice_id} voice={voice} onClose={onClose} onAdded={onAdded} />
      )}
    </Dialog>
  );
}

function AddLibraryVoiceForm({
  voice,
  onClose,
  onAdded,
}: {
  voice: LibraryVoice;
  onClose: () => void;
  onAdded: ((voiceId: string) => void) | undefined;
}) {
  const id = useId();
  const { toast } = useToast();
  const add = useAddSharedVoice();
  const [name, setName] = useState(voice.name);
  const [nameError, setNameError] = useState<string | undefined>();
  const code = isHttpError(add.error) ? add.error.errorType : undefined;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    if (name.trim() === '') {
      setNameError('Give the voice a name.');
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    add.mutate(
      { publicUserId: voice.public_owner_id, voiceId: voice.voice_id, newName: name },
      {
        onSuccess: (answer) => {
          toast({
            title: 'Voice added',
            description: `${name.trim()} is now in your voices.`,
            variant: 'success',
          });
          onAdded?.(answer.voice_id);
          onClose();
        },
      },
    );
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate aria-label={`Add ${voice.name}`}>
      <TextField
        id={`${id}-name`}
        label="Name in your voices"
        value={name}
        maxLength={VOICE_NAME_MAX}
        autoComplete="off"
        required
        error={nameError}
        disabled={add.isPending}
        onChange={(event) => {
          setName(event.target.value);
          setNameError(undefined);
        }}
      />
      {add.isError && (
        <div className="flex flex-col items-start gap-2">
          <FormMessage>{add.error.message}</FormMessage>
          {isPlanLimitError(code) && (
            <Link to="/app/subscription" className={getButtonClasses('secondary', 'sm')}>
              See plans
            </Link>
          )}
        </div>
      )}
      <div className="flex flex-wrap justify-end gap-2 pt-1">
        <Button variant="secondary" onClick={onClose} disabled={add.isPending}>
          Cancel
        </Button>
        <Button type="submit" aria-busy={add.isPending} aria-disabled={add.isPending || undefined}>
          {add.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
          {add.isPending ? 'Adding…' : 'Add to my voices'}
        </Button>
      </div>
    </form>
  );
}
