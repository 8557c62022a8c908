import { type FormEvent, useId, useRef, useState } from 'react';
import { formatMegabytes } from '../../../lib/audio-upload-types';
import { getToastMessage } from '../../../lib/http-error';
import { formatClipDuration } from '../../../lib/recording';
import { useToast } from '../../../lib/toasts/use-toast';
import { type Recording, recordingUnavailableReason, useRecorder } from '../../../lib/use-recorder';
import { AudioDropZone } from '../../../ui/audio-drop-zone';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { FormMessage, inputClasses } from '../../../ui/field';
import { HiddenFileInput } from '../../../ui/hidden-file-input';
import { CloseIcon, MicrophoneIcon, SpinnerIcon } from '../../../ui/icons';
import { ProgressBar } from '../../../ui/progress-bar';
import { SegmentedControl } from '../../../ui/segmented-control';
import { Switch } from '../../../ui/switch';
import { useCreateTranscript } from '../api/create-transcript';
import { MAX_SPEAKERS, STT_MODEL_IDS, type TimestampGranularity } from '../api/types';
import { liveDictationUnavailableReason } from '../live-dictation-rules';
import {
  checkTranscriptionFile,
  STT_LANGUAGES,
  TRANSCRIPTION_UPLOAD_ACCEPT,
  transcriptNameOf,
} from '../stt-rules';

/** The longest recording made on the page (a longer one is better uploaded as a file). */
export const MAX_RECORDING_SECONDS = 30 * 60;

/** What will be sent: a chosen file or a browser recording. */
interface Source {
  blob: Blob;
  fileName: string;
  origin: 'file' | 'recording';
  /** Known for recordings. */
  seconds: number | null;
}

type Accuracy = 'fast' | 'accurate' | 'multilingual';

const accuracyOptions = [
  { value: 'fast', label: 'Fast' },
  { value: 'accurate', label: 'Accurate' },
  { value: 'multilingual', label: 'Multilingual' },
] as const;

const modelNotes: Record<Accuracy, string> = {
  fast: 'The small built-in English model: quick, and good on clear speech.',
  accurate: 'The larger built-in English model: fewer mistakes, about half as fast.',
  multilingual:
    'The built-in multilingual model (Whisper base): 57 languages, detects the language when set to Auto detect; slower, and weaker on rarer languages.',
};

const timestampOptions: ReadonlyArray<{ value: TimestampGranularity; label: string }> = [
  { value: 'word', label: 'Words' },
  { value: 'character', label: 'Characters' },
  { value: 'none', label: 'None' },
];

/** What choosing a language other than English does: the English models transcribe English only. */
const multilingualNote = 'Multilingual model';

export interface TranscribeFormProps {
  /** A transcription has started on the server. */
  onStarted?: (transcriptionId: string) => void;
  /** Live dictation was asked for (the page shows its panel instead of this form). */
  onLiveDictation?: () => void;
  /** The id of the "Live dictation" button, for returning the focus to it. */
  liveDictationId?: string;
}

/**
 * The top of the transcription page (issue 19 item 6): an audio or video file, dropped or chosen (its type
 * and size checked before sending), or a recording made here; the language (detected, or chosen), the
 * speakers, audio events and timestamps; then the upload with its progress, which starts the
 * transcription on the server.
 */
export function TranscribeForm({ onStarted, onLiveDictation, liveDictationId }: TranscribeFormProps) {
  const id = useId();
  const { toast } = useToast();
  const fileInput = useRef<HTMLInputElement>(null);
  const [source, setSource] = useState<Source | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [languageCode, setLanguageCode] = useState('');
  const [accuracy, setAccuracy] = useState<Accuracy>('fast');
  const [diarize, setDiarize] = useState(false);
  const [numSpeakers, setNumSpeakers] = useState('');
  const [tagAudioEvents, setTagAudioEvents] = useState(true);
  const [timestamps, setTimestamps] = useState<TimestampGranularity>('word');
  const [progress, setProgress] = useState<number | null>(null);
  const [unavailable] = useState(recordingUnavailableReason);
  const [liveUnavailable] = useState(liveDictationUnavailableReason);
  const upload = useRef<AbortController | null>(null);
  const create = useCreateTranscript();

  const take = (next: Source) => {
    setRefusal(null);
    create.reset();
    setSource(next);
    setName(transcriptNameOf(next.fileName));
  };
  const recorder = useRecorder({
    maxSeconds: MAX_RECORDING_SECONDS,
    onRecorded: (recording: Recording) => take({ ...recording, origin: 'recording' }),
  });
  const recording = recorder.status !== 'idle';
  const busy = create.isPending;

  const takeFile = (file: File | undefined) => {
    if (!file) return;
    const problem = checkTranscriptionFile(file);
    if (problem) {
      setRefusal(problem);
      return;
    }
    take({ blob: file, fileName: file.name, origin: 'file', seconds: null });
  };
  const clear = () => {
    setSource(null);
    setName('');
    create.reset();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!source || busy) return;
    const controller = new AbortController();
    upload.current = controller;
    setProgress(0);
    const title = name.trim() || transcriptNameOf(source.fileName);
    create.mutate(
      {
        file: source.blob,
        fileName: source.fileName,
        name: title,
        modelId: STT_MODEL_IDS[accuracy],
        languageCode: languageCode || null,
        diarize,
        numSpeakers: diarize && numSpeakers !== '' ? Number(numSpeakers) : null,
        tagAudioEvents,
        timestampsGranularity: timestamps,
        onProgress: setProgress,
        signal: controller.signal,
      },
      {
        onSuccess: (answer) => {
          toast({
            title: `Transcribing ${title}`,
            description: 'It appears in the list below.',
            variant: 'success',
          });
          clear();
          onStarted?.(answer.transcription_id);
        },
        onSettled: () => {
          upload.current = null;
          setProgress(null);
        },
      },
    );
  };
  const cancelled = create.error instanceof DOMException && create.error.name === 'AbortError';
  const message =
    recorder.error ?? refusal ?? (create.isError && !cancelled ? getToastMessage(create.error) : null);

  return (
    <Card className="overflow-hidden">
      <form
        aria-label="Transcribe audio"
        onSubmit={handleSubmit}
        className="grid grid-cols-1 lg:grid-cols-[minmax(0,1fr)_20rem]"
      >
        <div className="flex min-w-0 flex-col gap-4 p-5">
          <HiddenFileInput
            ref={fileInput}
            id={`${id}-file`}
            accept={TRANSCRIPTION_UPLOAD_ACCEPT}
            label="Audio or video file"
            onFiles={(files) => takeFile(files?.[0])}
          />
          {source ? (
            <section
              aria-label="File to transcribe"
              className="flex flex-col gap-4 rounded-xl border border-line bg-subtle/40 p-4"
            >
              <div className="flex items-start gap-3">
                <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <p className="truncate text-sm font-medium text-fg" title={source.fileName}>
                    {source.fileName}
                  </p>
                  <p className="text-xs text-fg-muted tabular-nums">
                    {source.origin === 'recording' ? 'Recorded here' : 'Uploaded file'} ·{' '}
                    {formatMegabytes(source.blob.size)}
                    {source.seconds !== null && ` · ${formatClipDuration(source.seconds)}`}
                  </p>
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={source.origin === 'recording' ? 'Discard the recording' : 'Remove the file'}
                  disabled={busy}
                  onClick={clear}
                >
                  <CloseIcon aria-hidden="true" />
                </Button>
              </div>
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`${id}-name`} className="text-sm font-medium text-fg">
                  Title
                </label>
                <input
                  id={`${id}-name`}
                  value={name}
                  maxLength={200}
                  disabled={busy}
                  onChange={(event) => setName(event.target.value)}
                  className={inputClasses}
                />
              </div>
            </section>
          ) : (
            <AudioDropZone
              label="Audio to transcribe"
              title="Drop an audio or video file here"
              hint={
                <p className="max-w-md text-sm text-fg-muted">
                  MP3, WAV, M4A, OGG, FLAC, WEBM and the other common audio types, or a video (MP4, MOV, MKV,
                  AVI…) · up to 1 GB
                </p>
              }
              onFile={takeFile}
              onChooseFile={() => fileInput.current?.click()}
              recorder={recorder}
              maxRecordingSeconds={MAX_RECORDING_SECONDS}
              recordingUnavailable={unavailable}
              discardable
              disabled={busy}
              className="flex-1 px-4 sm:px-6"
              moreActions={
                onLiveDictation && (
                  <>
                    <span className="text-sm text-fg-muted">or</span>
                    <Button
                      id={liveDictationId}
                      variant="secondary"
                      disabled={busy || liveUnavailable !== null}
                      aria-describedby={liveUnavailable ? `${id}-no-live` : undefined}
                      onClick={onLiveDictation}
                    >
                      <MicrophoneIcon aria-hidden="true" />
                      Live dictation
                    </Button>
                  </>
                )
              }
              moreNotes={
                onLiveDictation &&
                liveUnavailable &&
                liveUnavailable !== unavailable && (
                  <p id={`${id}-no-live`} className="max-w-sm text-xs text-fg-muted">
                    {liveUnavailable}
                  </p>
                )
              }
            />
          )}
          {message && <FormMessage>{message}</FormMessage>}
        </div>

        <fieldset
          disabled={busy}
          className="flex min-w-0 flex-col gap-5 border-t border-line bg-subtle/30 p-5 lg:border-t-0 lg:border-l"
        >
          <legend className="sr-only">Options</legend>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-language`} className="text-sm font-medium text-fg">
              Language
            </label>
            <select
              id={`${id}-language`}
              value={languageCode}
              onChange={(event) => {
                const code = event.target.value;
                setLanguageCode(code);
                // Another language than English is the multilingual model's: it is chosen with it.
                if (code && !STT_LANGUAGES.find((l) => l.code === code)?.builtIn) setAccuracy('multilingual');
              }}
              aria-describedby={`${id}-language-note`}
              className={inputClasses}
            >
              <option value="">Auto detect</option>
              {STT_LANGUAGES.map((language) => (
                <option key={language.code} value={language.code}>
                  {language.builtIn ? language.name : `${language.name} — ${multilingualNote}`}
                </option>
              ))}
            </select>
            <p id={`${id}-language-note`} className="text-xs text-fg-muted">
              The Fast and Accurate models transcribe English; other languages are transcribed by the
              Multilingual model, which also detects the language.
            </p>
          </div>
          <div className="flex flex-col gap-1.5">
            <span aria-hidden="true" className="text-sm font-medium text-fg">
              Model
            </span>
            <SegmentedControl
              label="Model"
              options={accuracyOptions}
              value={accuracy}
              onChange={(model) => {
                setAccuracy(model);
                // The English models transcribe English only: another language chosen goes back to detection.
                if (
                  model !== 'multilingual' &&
                  languageCode &&
                  !STT_LANGUAGES.find((l) => l.code === languageCode)?.builtIn
                )
                  setLanguageCode('');
              }}
            />
            <p className="text-xs text-fg-muted">{modelNotes[accuracy]}</p>
          </div>
          <Switch
            label="Identify speakers"
            checked={diarize}
            onCheckedChange={setDiarize}
            description="Tells the voices apart and labels each paragraph with its speaker."
          />
          {diarize && (
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-speakers`} className="text-sm font-medium text-fg">
                Number of speakers
              </label>
              <select
                id={`${id}-speakers`}
                value={numSpeakers}
                onChange={(event) => setNumSpeakers(event.target.value)}
                className={inputClasses}
              >
                <option value="">Detect</option>
                {Array.from({ length: MAX_SPEAKERS }, (_, index) => index + 1).map((count) => (
                  <option key={count} value={count}>
                    {count}
                  </option>
                ))}
              </select>
            </div>
          )}
          <Switch
            label="Tag audio events"
            checked={tagAudioEvents}
            onCheckedChange={setTagAudioEvents}
            description="Marks music heard between speech. Other sounds (laughter, applause) are not recognised."
          />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-timestamps`} className="text-sm font-medium text-fg">
              Timestamps
            </label>
            <select
              id={`${id}-timestamps`}
              value={timestamps}
              onChange={(event) => setTimestamps(event.target.value as TimestampGranularity)}
              className={inputClasses}
            >
              {timestampOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
            {timestamps === 'none' && (
              <p className="text-xs text-warning">
                Without timestamps the transcript cannot follow the audio.
              </p>
            )}
          </div>
        </fieldset>
        <div className="flex flex-col gap-3 border-t border-line px-5 py-4 lg:col-span-2">
          {busy && (
            <div className="flex flex-col gap-2" aria-live="polite">
              <div className="flex items-center justify-between gap-3 text-sm">
                <span className="text-fg-muted">
                  {progress !== null && progress >= 1 ? 'Starting the transcription…' : 'Uploading…'}
                </span>
                <span className="font-medium tabular-nums">{Math.round((progress ?? 0) * 100)}%</span>
              </div>
              <ProgressBar label="Upload" value={progress} />
            </div>
          )}
          <div className="flex flex-wrap items-center justify-end gap-2">
            {busy && (
              <Button variant="secondary" onClick={() => upload.current?.abort()}>
                Cancel
              </Button>
            )}
            <Button type="submit" disabled={!source || recording} aria-disabled={busy || undefined}>
              {busy && <SpinnerIcon className="motion-safe:animate-spin" />}
              {busy ? 'Uploading…' : 'Transcribe'}
            </Button>
          </div>
        </div>
      </form>
    </Card>
  );
}
