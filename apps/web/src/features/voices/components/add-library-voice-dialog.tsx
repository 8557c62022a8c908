import type { LibraryVoice } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { Dialog } from '../../../ui/dialog';
import { FormActions } from '../../../ui/form-actions';
import { useAddSharedVoice } from '../api/add-shared-voice';
import { VoiceFormError } from './voice-form-error';
import { VoiceNameField } from './voice-name-field';

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
      <VoiceNameField
        id={`${id}-name`}
        label="Name in your voices"
        value={name}
        error={nameError}
        disabled={add.isPending}
        onChange={(next) => {
          setName(next);
          setNameError(undefined);
        }}
      />
      {add.isError && <VoiceFormError error={add.error} />}
      <FormActions
        submitLabel={add.isPending ? 'Adding…' : 'Add to my voices'}
        pending={add.isPending}
        onCancel={onClose}
        className="pt-1"
      />
    </form>
  );
}
