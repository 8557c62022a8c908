import { STS_MAX_SECONDS } from '@parla/contracts';
import { type SyntheticEvent, useId, useRef, useState } from 'react';
import { AUDIO_UPLOAD_ACCEPT, AUDIO_UPLOAD_TYPES_TEXT } from '../../../lib/audio-upload-types';
import { formatClipDuration } from '../../../lib/recording';
import { type Recording, recordingUnavailableReason, useRecorder } from '../../../lib/use-recorder';
import { AudioDropZone } from '../../../ui/audio-drop-zone';
import { Button } from '../../../ui/button';
import { HiddenFileInput } from '../../../ui/hidden-file-input';
import { CloseIcon } from '../../../ui/icons';
import { checkAudioFile, checkClipLength } from '../sts-rules';

/** The recording to convert: a chosen file or a browser recording, with its object URL for playback. */
export interface AudioClip {
  blob: Blob;
  fileName: string;
  /** An object URL of `blob`; its owner revokes it. */
  url: string;
  /** The length once known (from the recorder or the media element). */
  seconds: number | null;
  origin: 'file' | 'recording';
}

export interface AudioInputProps {
  clip: AudioClip | null;
  /** A new clip (its blob; the owner makes and revokes the URL), or null to clear it. */
  onChange: (
    next: { blob: Blob; fileName: string; seconds: number | null; origin: AudioClip['origin'] } | null,
  ) => void;
  /** The media element has read the clip's length. */
  onDuration: (seconds: number) => void;
  disabled?: boolean;
}

/**
 * The input of speech to speech: drop or choose an audio file (checked for type and size before anything is
 * sent), or record one with the microphone; then the clip, its length, a player and a way to clear it.
 */
export function AudioInput({ clip, onChange, onDuration, disabled = false }: AudioInputProps) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [unavailable] = useState(recordingUnavailableReason);
  const recorder = useRecorder({
    maxSeconds: STS_MAX_SECONDS,
    onRecorded: (recording: Recording) => {
      setRefusal(null);
      onChange({ ...recording, origin: 'recording' });
    },
  });

  const takeFile = (file: File | undefined) => {
    if (!file) return;
    const problem = checkAudioFile(file);
    setRefusal(problem);
    if (!problem) onChange({ blob: file, fileName: file.name, seconds: null, origin: 'file' });
  };
  // A recorder's WebM states no length (Infinity) until the media is sought to its end.
  const handleMetadata = (event: SyntheticEvent<HTMLAudioElement>) => {
    const audio = event.currentTarget;
    if (Number.isFinite(audio.duration) && audio.duration > 0) onDuration(audio.duration);
    else if (audio.duration === Number.POSITIVE_INFINITY) audio.currentTime = 1e7;
  };
  const handleDurationChange = (event: SyntheticEvent<HTMLAudioElement>) => {
    const audio = event.currentTarget;
    if (Number.isFinite(audio.duration) && audio.duration > 0 && audio.currentTime > 0) {
      onDuration(audio.duration);
      audio.currentTime = 0;
    }
  };

  const lengthProblem = clip ? checkClipLength(clip.seconds) : null;
  const message = recorder.error ?? refusal;

  return (
    <div className="flex flex-col gap-4 p-5">
      <HiddenFileInput
        ref={fileInput}
        id={`${id}-file`}
        accept={AUDIO_UPLOAD_ACCEPT}
        label="Audio file"
        onFiles={(files) => takeFile(files?.[0])}
      />
      {clip ? (
        <section
          aria-label="Your recording"
          className="flex flex-col gap-3 rounded-xl border border-line bg-subtle/40 p-4"
        >
          <div className="flex items-start gap-3">
            <div className="flex min-w-0 flex-1 flex-col gap-0.5">
              <p className="truncate text-sm font-medium text-fg" title={clip.fileName}>
                {clip.fileName}
              </p>
              <p className="text-xs text-fg-muted tabular-nums">
                {clip.origin === 'recording' ? 'Recorded here' : 'Uploaded file'} ·{' '}
                {clip.seconds === null ? 'reading the length…' : formatClipDuration(clip.seconds)}
              </p>
            </div>
            <Button
              variant="ghost"
              size="icon"
              aria-label="Remove the recording"
              disabled={disabled}
              onClick={() => onChange(null)}
            >
              <CloseIcon aria-hidden="true" />
            </Button>
          </div>
          {/* biome-ignore lint/a11y/useMediaCaption: the user's own speech, which has no captions to give. */}
          <audio
            key={clip.url}
            src={clip.url}
            controls
            preload="metadata"
            aria-label={`Play ${clip.fileName}`}
            className="w-full"
            onLoadedMetadata={handleMetadata}
            onDurationChange={handleDurationChange}
          />
          {lengthProblem && (
            <p role="alert" className="text-sm text-danger">
              {lengthProblem}
            </p>
          )}
        </section>
      ) : (
        <AudioDropZone
          label="Audio to convert"
          title="Drop an audio file here"
          hint={
            <p className="text-sm text-fg-muted">{AUDIO_UPLOAD_TYPES_TEXT} · up to 50 MB and 5 minutes</p>
          }
          onFile={takeFile}
          onChooseFile={() => fileInput.current?.click()}
          recorder={recorder}
          maxRecordingSeconds={STS_MAX_SECONDS}
          recordingUnavailable={unavailable}
          disabled={disabled}
          className="px-6"
        />
      )}
      {message && (
        <p role="alert" className="text-sm text-danger">
          {message}
        </p>
      )}
    </div>
  );
}
