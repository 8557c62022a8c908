import { IVC_MAX_FILES, VOICE_SAMPLE_MAX_BYTES, VOICE_SAMPLE_MAX_SECONDS } from '@parla/contracts';
import { clsx } from 'clsx';
import { type DragEvent, useId, useRef, useState } from 'react';
import {
  AUDIO_UPLOAD_ACCEPT,
  AUDIO_UPLOAD_TYPES_TEXT,
  formatMegabytes,
} from '../../../lib/audio-upload-types';
import { Button } from '../../../ui/button';
import { HiddenFileInput } from '../../../ui/hidden-file-input';
import { CloseIcon } from '../../../ui/icons';
import { addSampleFiles } from '../voice-rules';

export interface SampleFilesFieldProps {
  files: readonly File[];
  onChange: (files: File[]) => void;
  label?: string;
  /** Why the chosen files cannot be sent (e.g. none chosen), from the form's check. */
  error?: string | undefined;
  disabled?: boolean;
}

/**
 * Audio samples of a voice: dropped or chosen, several at once, each checked for type and size before
 * anything is sent (history/voices §5 audio types; the API's 11 MB a sample, 25 a request), listed with a
 * way to take one out.
 */
export function SampleFilesField({
  files,
  onChange,
  label = 'Audio samples',
  error,
  disabled = false,
}: SampleFilesFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);

  const take = (chosen: FileList | null | undefined) => {
    if (!chosen || chosen.length === 0) return;
    const next = addSampleFiles(files, [...chosen]);
    setProblems(next.problems);
    onChange(next.files);
  };
  const handleDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled) setDragging(true);
  };
  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) take(event.dataTransfer.files);
  };

  return (
    <div className="flex flex-col gap-2">
      <span id={`${id}-label`} className="text-sm font-medium text-fg">
        {label}
      </span>
      <HiddenFileInput
        ref={input}
        multiple
        accept={AUDIO_UPLOAD_ACCEPT}
        label={label}
        disabled={disabled}
        onFiles={take}
      />
      <section
        aria-label={`Drop ${label.toLowerCase()} here`}
        aria-describedby={`${id}-hint`}
        onDragOver={handleDragOver}
        onDragEnter={handleDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={handleDrop}
        className={clsx(
          'flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-5 text-center transition-colors',
          dragging ? 'border-accent bg-accent/5' : error ? 'border-danger/60' : 'border-line',
        )}
      >
        <p className="text-sm font-medium text-fg">Drop audio files here</p>
        <p id={`${id}-hint`} className="text-xs text-fg-muted">
          {AUDIO_UPLOAD_TYPES_TEXT} · up to {formatMegabytes(VOICE_SAMPLE_MAX_BYTES).replace('.0', '')} and{' '}
          {VOICE_SAMPLE_MAX_SECONDS / 60} minutes each, {IVC_MAX_FILES} at most. One speaker, little
          background noise; a minute or more in all works best.
        </p>
        <Button variant="secondary" size="sm" disabled={disabled} onClick={() => input.current?.click()}>
          Choose files
        </Button>
      </section>
      {files.length > 0 && (
        <ul
          aria-label="Chosen samples"
          className="flex flex-col divide-y divide-line rounded-lg border border-line bg-subtle/40"
        >
          {files.map((file, index) => (
            <li
              key={`${file.name}-${file.size}-${file.lastModified}`}
              className="flex items-center gap-3 px-3 py-2"
            >
              <span className="min-w-0 flex-1 truncate text-sm text-fg" title={file.name}>
                {file.name}
              </span>
              <span className="shrink-0 text-xs text-fg-muted tabular-nums">
                {formatMegabytes(file.size)}
              </span>
              <Button
                variant="ghost"
                size="icon"
                className="size-7 text-base"
                aria-label={`Remove ${file.name}`}
                disabled={disabled}
                onClick={() => onChange(files.filter((_, at) => at !== index))}
              >
                <CloseIcon />
              </Button>
            </li>
          ))}
        </ul>
      )}
      {problems.map((problem) => (
        <p key={problem} role="alert" className="text-sm text-danger">
          {problem}
        </p>
      ))}
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
