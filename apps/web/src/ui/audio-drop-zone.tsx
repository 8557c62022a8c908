import { clsx } from 'clsx';
import { type DragEvent, type ReactNode, useId, useState } from 'react';
import type { useRecorder } from '../lib/use-recorder';
import { Button } from './button';
import { RecordingPanel } from './recording-panel';

export interface AudioDropZoneProps {
  /** The region's name for assistive technology ("Audio to transcribe"). */
  label: string;
  /** The invitation ("Drop an audio file here") and the files it takes. */
  title: string;
  hint: ReactNode;
  /** A dropped file; the caller checks its type and size. */
  onFile: (file: File | undefined) => void;
  /** "Choose a file": the caller opens its hidden file input (which stays mounted with the chosen clip). */
  onChooseFile: () => void;
  /** The caller's microphone recorder (lib/use-recorder): its take goes to the caller's onRecorded. */
  recorder: ReturnType<typeof useRecorder>;
  /** The longest take, for the recording panel's clock. */
  maxRecordingSeconds: number;
  /** Why this browser cannot record (lib/use-recorder recordingUnavailableReason), or null. */
  recordingUnavailable: string | null;
  /** Offer "Discard" while recording, to throw the take away. */
  discardable?: boolean;
  /** A request is running: nothing new is taken. */
  disabled?: boolean;
  /** More ways in after "Record" (speech to text's live dictation), and their notes. */
  moreActions?: ReactNode;
  moreNotes?: ReactNode;
  className?: string;
}

/**
 * Where an audio input starts (speech to text, speech to speech): a file dropped on the dashed region or
 * chosen, or a recording made with the microphone, whose level and clock show while it runs.
 */
export function AudioDropZone({
  label,
  title,
  hint,
  onFile,
  onChooseFile,
  recorder,
  maxRecordingSeconds,
  recordingUnavailable,
  discardable = false,
  disabled = false,
  moreActions,
  moreNotes,
  className,
}: AudioDropZoneProps) {
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const recording = recorder.status !== 'idle';

  const handleDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled && !recording) setDragging(true);
  };
  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled && !recording) onFile(event.dataTransfer.files[0]);
  };

  return (
    <section
      aria-label={label}
      onDragOver={handleDragOver}
      onDragEnter={handleDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={handleDrop}
      className={clsx(
        'flex min-h-56 flex-col items-center justify-center gap-4 rounded-xl border-2 border-dashed py-8 text-center transition-colors',
        dragging ? 'border-accent bg-accent/5' : 'border-line',
        className,
      )}
    >
      {recording ? (
        <>
          <RecordingPanel
            elapsed={recorder.elapsed}
            level={recorder.level}
            starting={recorder.status === 'starting'}
            maxSeconds={maxRecordingSeconds}
            onStop={recorder.stop}
            className="gap-4"
          />
          {discardable && (
            <Button
              variant="ghost"
              size="sm"
              disabled={recorder.status === 'starting'}
              onClick={recorder.discard}
            >
              Discard
            </Button>
          )}
        </>
      ) : (
        <>
          <div className="flex flex-col gap-1">
            <p className="text-base font-medium text-fg">{title}</p>
            {hint}
          </div>
          <div className="flex flex-wrap items-center justify-center gap-2">
            <Button variant="secondary" disabled={disabled} onClick={onChooseFile}>
              Choose a file
            </Button>
            <span className="text-sm text-fg-muted">or</span>
            <Button
              variant="secondary"
              disabled={disabled || recordingUnavailable !== null}
              aria-describedby={recordingUnavailable ? `${id}-no-recorder` : undefined}
              onClick={() => void recorder.start()}
            >
              <span aria-hidden="true" className="size-2.5 rounded-full bg-danger" />
              Record
            </Button>
            {moreActions}
          </div>
          {recordingUnavailable && (
            <p id={`${id}-no-recorder`} className="max-w-sm text-xs text-fg-muted">
              {recordingUnavailable}
            </p>
          )}
          {moreNotes}
        </>
      )}
    </section>
  );
}
