import {
  PVC_MAX_FILES,
  PVC_MIN_TRAINING_SECONDS,
  PVC_SAMPLE_MAX_BYTES,
  PVC_SAMPLE_MAX_SECONDS,
  type VoiceResponse,
} from '@parla/contracts';
import { clsx } from 'clsx';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import {
  AUDIO_UPLOAD_ACCEPT,
  AUDIO_UPLOAD_TYPES_TEXT,
  formatMegabytes,
} from '../../../lib/audio-upload-types';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/field';
import { HiddenFileInput } from '../../../ui/hidden-file-input';
import { TrashIcon } from '../../../ui/icons';
import { ProgressBar } from '../../../ui/progress-bar';
import { Switch } from '../../../ui/switch';
import { useAddPvcSamples } from '../api/add-pvc-samples';
import { useDeletePvcSample } from '../api/delete-pvc-sample';
import { formatSeconds, pickPvcSampleFiles, samplesSeconds } from '../pvc-rules';

export interface PvcSamplesStepProps {
  voice: VoiceResponse;
  onContinue: () => void;
}

/**
 * A professional clone's samples (§7 `…/samples`): long recordings dropped or chosen, sent at once with
 * the upload's progress, then listed with their size and length and a way to remove each; the total
 * against the training's minimum.
 */
export function PvcSamplesStep({ voice, onContinue }: PvcSamplesStepProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const add = useAddPvcSamples();
  const remove = useDeletePvcSample();
  const [dragging, setDragging] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [progress, setProgress] = useState(0);
  const [uploading, setUploading] = useState<string[]>([]);
  const [removeNoise, setRemoveNoise] = useState(false);
  const [removingId, setRemovingId] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const samples = voice.samples ?? [];
  const total = samplesSeconds(voice);
  const enough = total >= PVC_MIN_TRAINING_SECONDS;
  const busy = add.isPending;

  const upload = (chosen: FileList | null | undefined) => {
    if (!chosen || chosen.length === 0 || busy) return;
    const picked = pickPvcSampleFiles([...chosen]);
    setProblems(picked.problems);
    if (picked.files.length === 0) return;
    controller.current = new AbortController();
    setProgress(0);
    setUploading(picked.files.map((file) => file.name));
    add.mutate(
      {
        voiceId: voice.voice_id,
        files: picked.files,
        removeBackgroundNoise: removeNoise,
        onProgress: setProgress,
        signal: controller.current.signal,
      },
      { onSettled: () => setUploading([]) },
    );
  };
  const handleDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!busy) setDragging(true);
  };
  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    upload(event.dataTransfer.files);
  };
  const handleRemove = (sampleId: string) => {
    setRemovingId(sampleId);
    remove.mutate({ voiceId: voice.voice_id, sampleId }, { onSettled: () => setRemovingId(null) });
  };
  const cancelled = add.error?.name === 'AbortError';

  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-fg-muted">
        Upload recordings of the voice: the more clean speech, the closer the clone. At least{' '}
        {PVC_MIN_TRAINING_SECONDS} seconds are needed; half an hour or more works best. Recordings with other
        people speaking are fine: you pick the voice in the next step.
      </p>
      <HiddenFileInput
        ref={input}
        multiple
        accept={AUDIO_UPLOAD_ACCEPT}
        label="Sample files"
        disabled={busy}
        onFiles={upload}
      />
      <section
        aria-label="Drop recordings here"
        aria-describedby={`${id}-hint`}
        onDragOver={handleDragOver}
        onDragEnter={handleDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={handleDrop}
        className={clsx(
          'flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors',
          dragging ? 'border-accent bg-accent/5' : 'border-line',
        )}
      >
        {busy ? (
          <div className="flex w-full max-w-md flex-col gap-2" aria-live="polite">
            <p className="truncate text-sm font-medium text-fg">
              Uploading {uploading.length === 1 ? uploading[0] : `${uploading.length} files`}…
            </p>
            <ProgressBar label="Upload progress" value={progress} />
            <div className="flex items-center justify-between gap-2 text-xs text-fg-muted">
              <span className="tabular-nums">
                {progress >= 1 ? 'Checking and measuring the audio…' : `${Math.round(progress * 100)} %`}
              </span>
              <Button variant="ghost" size="sm" onClick={() => controller.current?.abort()}>
                Cancel upload
              </Button>
            </div>
          </div>
        ) : (
          <>
            <p className="text-sm font-medium text-fg">Drop recordings here</p>
            <p id={`${id}-hint`} className="max-w-lg text-xs text-fg-muted">
              {AUDIO_UPLOAD_TYPES_TEXT} · up to {formatMegabytes(PVC_SAMPLE_MAX_BYTES).replace('.0', '')} and{' '}
              {PVC_SAMPLE_MAX_SECONDS / 60} minutes each, {PVC_MAX_FILES} files at a time.
            </p>
            <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
              Choose files
            </Button>
          </>
        )}
      </section>
      <Switch
        label="Remove background noise"
        checked={removeNoise}
        onCheckedChange={setRemoveNoise}
        disabled={busy}
        description="Cleans the next recordings you upload before the voice is measured. Leave it off for clean studio recordings."
      />
      {problems.map((problem) => (
        <p key={problem} role="alert" className="text-sm text-danger">
          {problem}
        </p>
      ))}
      {add.error && !cancelled && <FormMessage>{add.error.message}</FormMessage>}
      {cancelled && <p className="text-sm text-fg-muted">The upload was cancelled.</p>}
      {remove.error && <FormMessage>{remove.error.message}</FormMessage>}

      <section aria-labelledby={`${id}-list`} className="flex flex-col gap-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id={`${id}-list`} className="text-sm font-medium text-fg">
            Uploaded samples
          </h3>
          <p className={clsx('text-sm tabular-nums', enough ? 'text-success' : 'text-fg-muted')}>
            {formatSeconds(total)} of audio
            {!enough && ` · ${formatSeconds(PVC_MIN_TRAINING_SECONDS - total)} more needed`}
          </p>
        </div>
        {samples.length === 0 ? (
          <p className="rounded-lg border border-line bg-subtle/40 px-4 py-6 text-center text-sm text-fg-muted">
            No samples yet. Upload at least {PVC_MIN_TRAINING_SECONDS} seconds of the voice.
          </p>
        ) : (
          <ul
            aria-label="Uploaded samples"
            className="flex flex-col divide-y divide-line rounded-lg border border-line bg-subtle/40"
          >
            {samples.map((sample) => (
              <li key={sample.sample_id} className="flex items-center gap-3 px-3 py-2">
                <span className="min-w-0 flex-1 truncate text-sm text-fg" title={sample.file_name}>
                  {sample.file_name}
                </span>
                <span className="shrink-0 text-xs text-fg-muted tabular-nums">
                  {formatSeconds(sample.duration_secs)} · {formatMegabytes(sample.size_bytes)}
                </span>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8 text-base hover:text-danger"
                  aria-label={`Remove ${sample.file_name}`}
                  title="Remove"
                  disabled={removingId !== null || busy}
                  aria-busy={removingId === sample.sample_id || undefined}
                  onClick={() => handleRemove(sample.sample_id)}
                >
                  <TrashIcon />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {!enough && samples.length > 0 && (
          <p id={`${id}-why`} className="text-xs text-fg-muted">
            Add more audio to continue.
          </p>
        )}
        <Button
          onClick={onContinue}
          disabled={!enough || busy}
          aria-describedby={!enough && samples.length > 0 ? `${id}-why` : undefined}
        >
          Continue to speakers
        </Button>
      </div>
    </div>
  );
}
