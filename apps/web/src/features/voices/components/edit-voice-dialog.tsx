import type { VoiceResponse } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { formatMegabytes } from '../../../lib/audio-upload-types';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog } from '../../../ui/dialog';
import { FormActions } from '../../../ui/form-actions';
import { TrashIcon } from '../../../ui/icons';
import { Switch } from '../../../ui/switch';
import { useDeleteVoiceSample } from '../api/delete-voice-sample';
import { useEditVoice } from '../api/edit-voice';
import { usePreviewPlayer } from '../use-preview-player';
import { buildVoiceLabels, type EditableLabels, readEditableLabels } from '../voice-labels';
import { samplePlayerId, voiceSamplePlayback } from '../voice-playback';
import { isLibraryCopy } from '../voice-rules';
import { PreviewButton } from './preview-button';
import { SampleFilesField } from './sample-files-field';
import { VoiceDescriptionField } from './voice-description-field';
import { VoiceFormError } from './voice-form-error';
import { VoiceLabelsFields } from './voice-labels-fields';
import { VoiceNameField } from './voice-name-field';

export interface EditVoiceDialogProps {
  /** The voice being edited, as the list shows it now; the dialog is open while there is one. */
  voice: VoiceResponse | null;
  onClose: () => void;
}

/** Edits an own voice (history/voices §7 `POST /v1/voices/{id}/edit`): its details and its samples. */
export function EditVoiceDialog({ voice, onClose }: EditVoiceDialogProps) {
  return (
    <Dialog
      open={voice !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={voice ? `Edit ${voice.name}` : 'Edit voice'}
      description="Rename it, describe it, label it, and listen to, add or remove its samples."
      size="2xl"
    >
      {voice && <EditVoiceForm key={voice.voice_id} voice={voice} onClose={onClose} />}
    </Dialog>
  );
}

function EditVoiceForm({ voice, onClose }: { voice: VoiceResponse; onClose: () => void }) {
  const id = useId();
  const { toast, toastError } = useToast();
  const preview = usePreviewPlayer();
  const edit = useEditVoice();
  const removeSample = useDeleteVoiceSample();
  const [name, setName] = useState(voice.name);
  const [nameError, setNameError] = useState<string | undefined>();
  const [description, setDescription] = useState(voice.description ?? '');
  const [labels, setLabels] = useState<EditableLabels>(() => readEditableLabels(voice.labels));
  const [files, setFiles] = useState<File[]>([]);
  const [removeNoise, setRemoveNoise] = useState(false);
  const [sampleToDelete, setSampleToDelete] = useState<string | null>(null);

  const copy = isLibraryCopy(voice);
  const samples = voice.samples ?? [];
  const pendingSample = samples.find((sample) => sample.sample_id === sampleToDelete);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (edit.isPending) return;
    if (name.trim() === '') {
      setNameError('Give the voice a name.');
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    edit.mutate(
      {
        voiceId: voice.voice_id,
        name,
        description,
        labels: buildVoiceLabels(labels, voice.labels),
        removeBackgroundNoise: removeNoise,
        files,
      },
      {
        onSuccess: () => {
          toast({
            title: 'Voice saved',
            description:
              files.length > 0
                ? `${files.length === 1 ? 'The sample was' : `${files.length} samples were`} added and ${name.trim()} was measured again.`
                : undefined,
            variant: 'success',
          });
          onClose();
        },
      },
    );
  };

  const handleDeleteSample = () => {
    if (!pendingSample) return;
    removeSample.mutate(
      { voiceId: voice.voice_id, sampleId: pendingSample.sample_id },
      {
        onSuccess: () => {
          setSampleToDelete(null);
          toast({ title: 'Sample deleted', description: pendingSample.file_name, variant: 'success' });
        },
        onError: (error) => {
          setSampleToDelete(null);
          toastError(error);
        },
      },
    );
  };

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={handleSubmit}
      noValidate
      aria-label={`Edit ${voice.name}`}
    >
      <VoiceNameField
        id={`${id}-name`}
        value={name}
        error={nameError}
        disabled={edit.isPending}
        onChange={(next) => {
          setName(next);
          setNameError(undefined);
        }}
      />
      <VoiceDescriptionField
        id={`${id}-description`}
        value={description}
        onChange={setDescription}
        disabled={edit.isPending}
      />
      <VoiceLabelsFields value={labels} onChange={setLabels} disabled={edit.isPending} />

      {copy ? (
        <p className="rounded-lg bg-subtle/70 px-3 py-2 text-xs text-fg-muted">
          This voice was added from the library: its samples stay with its owner.
        </p>
      ) : (
        <section aria-labelledby={`${id}-samples`} className="flex flex-col gap-3">
          <h3 id={`${id}-samples`} className="text-sm font-medium text-fg">
            Samples
          </h3>
          {samples.length === 0 ? (
            <p className="text-sm text-fg-muted">
              {voice.category === 'generated'
                ? 'A designed voice has no samples; add recordings to make it follow a real voice instead.'
                : 'No samples.'}
            </p>
          ) : (
            <ul
              aria-label="Samples"
              className="flex flex-col divide-y divide-line rounded-lg border border-line bg-surface"
            >
              {samples.map((sample) => (
                <li key={sample.sample_id} className="flex items-center gap-3 px-3 py-2">
                  <PreviewButton
                    label={`the sample ${sample.file_name}`}
                    playing={preview.isPlaying(samplePlayerId(voice.voice_id, sample.sample_id))}
                    onToggle={() => preview.toggle(voiceSamplePlayback(voice, sample))}
                  />
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate text-sm" title={sample.file_name}>
                      {sample.file_name}
                    </span>
                    <span className="text-xs text-fg-muted tabular-nums">
                      {sample.duration_secs.toFixed(1)} s · {formatMegabytes(sample.size_bytes)}
                    </span>
                  </span>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="text-base hover:text-danger"
                    aria-label={`Delete the sample ${sample.file_name}`}
                    title="Delete sample"
                    disabled={removeSample.isPending}
                    onClick={() => setSampleToDelete(sample.sample_id)}
                  >
                    <TrashIcon />
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <SampleFilesField label="Add samples" files={files} onChange={setFiles} disabled={edit.isPending} />
          {files.length > 0 && (
            <Switch
              label="Remove background noise"
              checked={removeNoise}
              onCheckedChange={setRemoveNoise}
              disabled={edit.isPending}
              description="Cleans the new samples before the voice is measured again."
            />
          )}
        </section>
      )}

      {edit.isError && <VoiceFormError error={edit.error} />}
      <FormActions
        submitLabel={edit.isPending ? 'Saving…' : 'Save changes'}
        pending={edit.isPending}
        onCancel={onClose}
      />

      <ConfirmDialog
        open={pendingSample !== undefined}
        title="Delete this sample?"
        description={
          samples.length === 1
            ? 'It is the voice’s only sample: the server keeps the last one. Add another sample first, or delete the voice.'
            : 'The voice is measured again from the samples left. The file is deleted for good.'
        }
        confirmLabel="Delete sample"
        pending={removeSample.isPending}
        onConfirm={handleDeleteSample}
        onCancel={() => setSampleToDelete(null)}
      >
        {pendingSample && (
          <p className="rounded-lg border border-line bg-subtle px-3 py-2 text-sm">
            {pendingSample.file_name}
          </p>
        )}
      </ConfirmDialog>
    </form>
  );
}
