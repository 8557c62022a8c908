import { clsx } from 'clsx';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { formatMegabytes } from '../../../lib/audio-upload-types';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, inputClasses, TextField } from '../../../ui/field';
import { HiddenFileInput } from '../../../ui/hidden-file-input';
import { SpinnerIcon } from '../../../ui/icons';
import { ProgressBar } from '../../../ui/progress-bar';
import { SegmentedControl } from '../../../ui/segmented-control';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { useCreateDub } from '../api/create-dub';
import { useDubbingLanguages } from '../api/get-dubbing-languages';
import {
  DUBBING_MAX_SECONDS,
  DUBBING_MAX_SPEAKERS,
  DUBBING_MAX_UPLOAD_BYTES,
  type DubbingLanguageEntry,
  dubbingCredits,
} from '../api/types';
import {
  DUBBING_UPLOAD_ACCEPT,
  DUBBING_UPLOAD_TYPES_TEXT,
  formatClock,
  isDubbingUpload,
  isVideoFile,
  targetAvailability,
} from '../dubbing-rules';
import { readMediaDuration } from '../media-duration';

export interface NewDubDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dub the server started. */
  onStarted: (dubbingId: string) => void;
}

type SourceKind = 'file' | 'url';

/** A typed time in seconds: null when empty, NaN when not a number. */
function parseSeconds(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? value : Number.NaN;
}

/**
 * The new-dub dialog (issue 29 item 3): the source (a file or a URL), its name, the languages (the
 * targets this installation cannot do are shown disabled with the reason), speakers, a time range, the
 * options and what it will cost; sends `POST /v1/dubbing` as multipart.
 */
export function NewDubDialog({ open, onOpenChange, onStarted }: NewDubDialogProps) {
  const create = useCreateDub();
  const abort = useRef<AbortController | null>(null);
  const close = (next: boolean) => {
    if (!next) abort.current?.abort();
    onOpenChange(next);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="New dub"
      description="Dub a video or a recording into another language, with a voice matched to each speaker."
      size="2xl"
    >
      {open && (
        <NewDubForm
          pending={create.isPending}
          onCancel={() => close(false)}
          onSubmit={(input, onProgress) => {
            abort.current = new AbortController();
            create.mutate(
              { ...input, onProgress, signal: abort.current.signal },
              {
                onSuccess: (answer) => {
                  onStarted(answer.dubbing_id);
                  onOpenChange(false);
                },
              },
            );
          }}
          error={create.isError ? getToastMessage(create.error) : null}
        />
      )}
    </Dialog>
  );
}

type FormInput = Omit<Parameters<ReturnType<typeof useCreateDub>['mutate']>[0], 'onProgress' | 'signal'>;

function NewDubForm({
  pending,
  error,
  onCancel,
  onSubmit,
}: {
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onSubmit: (input: FormInput, onProgress: (share: number) => void) => void;
}) {
  const id = useId();
  const languages = useDubbingLanguages();
  const fileInput = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<SourceKind>('file');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [duration, setDuration] = useState<number | null>(null);
  const [readingDuration, setReadingDuration] = useState(false);
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [sourceLang, setSourceLang] = useState('auto');
  const [targetLang, setTargetLang] = useState('');
  const [speakers, setSpeakers] = useState('0');
  const [startText, setStartText] = useState('');
  const [endText, setEndText] = useState('');
  const [dropBackground, setDropBackground] = useState(false);
  const [noCloning, setNoCloning] = useState(false);
  const [watermark, setWatermark] = useState(false);
  const [progress, setProgress] = useState(0);
  const [tried, setTried] = useState(false);

  const isVideo = kind === 'url' || (file ? isVideoFile(file) : false);
  useEffect(() => {
    if (!isVideo) setWatermark(false);
  }, [isVideo]);

  const chooseFile = (chosen: File | undefined) => {
    if (!chosen) return;
    if (!isDubbingUpload(chosen)) {
      setFileError(`This file type cannot be dubbed. ${DUBBING_UPLOAD_TYPES_TEXT}`);
      return;
    }
    if (chosen.size > DUBBING_MAX_UPLOAD_BYTES) {
      setFileError(`The file is ${formatMegabytes(chosen.size)}; the largest a dub takes is 1 GB.`);
      return;
    }
    setFileError(null);
    setFile(chosen);
    setDuration(null);
    if (!name.trim()) setName(chosen.name.replace(/\.[^.]+$/, ''));
    setReadingDuration(true);
    void readMediaDuration(chosen).then((seconds) => {
      setDuration(seconds);
      setReadingDuration(false);
    });
  };

  const start = parseSeconds(startText);
  const end = parseSeconds(endText);
  const rangeError =
    Number.isNaN(start) || Number.isNaN(end)
      ? 'Times are seconds, like 12.5.'
      : start !== null && end !== null && end <= start
        ? 'The end must be after the start.'
        : duration !== null && start !== null && start >= duration
          ? `The start is past the end of the file (${formatClock(duration, false)}).`
          : null;
  const targetEntry = languages.data?.find((entry) => entry.code === targetLang);
  const targetError = tried && !targetLang ? 'Choose the language to dub into.' : null;
  const sourceError =
    targetLang && sourceLang !== 'auto' && sourceLang === targetLang
      ? 'The source and the target must differ.'
      : null;
  const urlError =
    tried && kind === 'url' && !/^https?:\/\/\S+$/i.test(url.trim())
      ? 'Enter an http or https address.'
      : null;
  const sourceMissing = kind === 'file' ? !file : url.trim() === '';

  // The seconds billed: the time range when given, else the whole file (contracts dubbingCredits).
  const billedSeconds =
    duration === null || rangeError ? null : Math.max(0, Math.min(end ?? duration, duration) - (start ?? 0));
  const credits = billedSeconds === null ? null : dubbingCredits(billedSeconds, 1, watermark);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (sourceMissing || !targetLang || rangeError || sourceError) return;
    if (kind === 'url' && !/^https?:\/\/\S+$/i.test(url.trim())) return;
    setProgress(0);
    onSubmit(
      {
        source:
          kind === 'file' && file
            ? { kind: 'file', file, fileName: file.name }
            : { kind: 'url', url: url.trim() },
        name,
        sourceLang,
        targetLang,
        numSpeakers: Number(speakers),
        startTime: start,
        endTime: end,
        dropBackgroundAudio: dropBackground,
        disableVoiceCloning: noCloning,
        watermark,
      },
      setProgress,
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <div className="flex flex-col gap-3">
        <div className="self-start">
          <SegmentedControl<SourceKind>
            label="Source"
            options={[
              { value: 'file', label: 'Upload a file' },
              { value: 'url', label: 'From a URL' },
            ]}
            value={kind}
            onChange={setKind}
          />
        </div>
        {kind === 'file' ? (
          // biome-ignore lint/a11y/noStaticElementInteractions: a file dropped with the pointer; the button beside it is the keyboard's way
          <div
            className={clsx(
              'flex flex-col items-start gap-2 rounded-xl border-2 border-dashed p-4 sm:flex-row sm:items-center',
              fileError ? 'border-danger' : 'border-line',
            )}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              chooseFile(event.dataTransfer.files[0]);
            }}
          >
            <HiddenFileInput
              ref={fileInput}
              label="Video or audio file"
              accept={DUBBING_UPLOAD_ACCEPT}
              onFiles={(files) => chooseFile(files?.[0])}
            />
            <Button
              type="button"
              variant="secondary"
              onClick={() => fileInput.current?.click()}
              disabled={pending}
            >
              {file ? 'Choose another file' : 'Choose a file'}
            </Button>
            <div className="min-w-0 flex-1 text-sm">
              {file ? (
                <p className="truncate font-medium text-fg" title={file.name}>
                  {file.name}
                  <span className="font-normal text-fg-muted">
                    {' · '}
                    {formatMegabytes(file.size)}
                    {duration !== null ? ` · ${formatClock(duration, false)}` : ''}
                    {isVideoFile(file) ? ' · video' : ' · audio'}
                  </span>
                </p>
              ) : (
                <p className="text-fg-muted">
                  Or drop it here. Up to 1 GB and {DUBBING_MAX_SECONDS / 60} minutes.
                </p>
              )}
            </div>
          </div>
        ) : (
          <TextField
            label="Video or audio URL"
            type="url"
            inputMode="url"
            placeholder="https://"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            error={urlError ?? undefined}
            description="The server fetches it; the operator chooses which hosts are allowed."
          />
        )}
        {fileError && (
          <p role="alert" className="text-sm text-danger">
            {fileError}
          </p>
        )}
        {kind === 'file' && !fileError && (
          <p className="text-xs text-fg-muted">{DUBBING_UPLOAD_TYPES_TEXT}</p>
        )}
      </div>

      <TextField
        label="Name"
        value={name}
        maxLength={200}
        onChange={(event) => setName(event.target.value)}
        placeholder="Untitled dub"
      />

      {languages.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2" aria-busy="true">
          <span className="sr-only">Loading languages…</span>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : languages.isError ? (
        <FormMessage>The languages could not be loaded: {getToastMessage(languages.error)}</FormMessage>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <LanguageSelect
            id={`${id}-source`}
            label="Source language"
            value={sourceLang}
            onChange={setSourceLang}
            error={sourceError}
            options={[
              { value: 'auto', label: 'Detect automatically', disabled: false },
              ...languages.data.map((entry) => ({
                value: entry.code,
                label: entry.can_transcribe ? entry.name : `${entry.name} — no recogniser here`,
                disabled: !entry.can_transcribe,
              })),
            ]}
          />
          <LanguageSelect
            id={`${id}-target`}
            label="Dub into"
            value={targetLang}
            onChange={setTargetLang}
            error={targetError}
            note={targetNote(targetEntry, languages.data)}
            options={[
              { value: '', label: 'Choose a language', disabled: true },
              ...languages.data.map((entry) => {
                const availability = targetAvailability(entry, languages.data);
                return {
                  value: entry.code,
                  label: availability.note ? `${entry.name} — ${availability.note}` : entry.name,
                  disabled: !availability.available,
                };
              }),
            ]}
          />
        </div>
      )}

      <div className="grid gap-4 sm:grid-cols-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-speakers`} className="text-sm font-medium text-fg">
            Speakers
          </label>
          <select
            id={`${id}-speakers`}
            className={inputClasses}
            value={speakers}
            onChange={(event) => setSpeakers(event.target.value)}
          >
            <option value="0">Detect automatically</option>
            {Array.from({ length: DUBBING_MAX_SPEAKERS }, (_, index) => index + 1).map((count) => (
              <option key={count} value={String(count)}>
                {count}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label="Start (seconds)"
          inputMode="decimal"
          placeholder="0"
          value={startText}
          onChange={(event) => setStartText(event.target.value)}
        />
        <TextField
          label="End (seconds)"
          inputMode="decimal"
          placeholder={duration !== null ? duration.toFixed(1) : 'The end'}
          value={endText}
          onChange={(event) => setEndText(event.target.value)}
        />
      </div>
      {rangeError && (
        <p role="alert" className="-mt-3 text-sm text-danger">
          {rangeError}
        </p>
      )}

      <fieldset className="flex flex-col gap-4 rounded-xl border border-line p-4">
        <legend className="px-1 text-sm font-medium">Options</legend>
        <Switch
          label="Drop the background audio"
          checked={dropBackground}
          onCheckedChange={setDropBackground}
          description="This server cannot separate voices from music and effects, so this drops ALL the original sound: the dub keeps only the new speech. Off, the original is kept quietly under it."
        />
        <Switch
          label="Do not clone the voices"
          checked={noCloning}
          onCheckedChange={setNoCloning}
          description="Speak with stock voices instead of voices matched to each speaker's pitch and timbre."
        />
        <Switch
          label="Watermark the video"
          checked={watermark}
          onCheckedChange={setWatermark}
          disabled={!isVideo}
          description={
            isVideo ? 'A watermarked dub costs a third less.' : 'Only a video can carry a watermark.'
          }
        />
      </fieldset>

      <div className="flex flex-col gap-1 rounded-xl bg-subtle px-4 py-3 text-sm" aria-live="polite">
        <span className="font-medium text-fg">Cost estimate</span>
        <span className="text-fg-muted">
          {credits !== null && billedSeconds !== null ? (
            <>
              <strong className="text-fg tabular-nums">{credits.toLocaleString('en-US')} credits</strong> for{' '}
              {formatClock(billedSeconds, false)} of source into one language.
            </>
          ) : readingDuration ? (
            'Reading the file’s length…'
          ) : kind === 'url' ? (
            `${watermark ? '660' : '1,000'} credits a minute of source per language; the length is known once the server fetches it.`
          ) : file ? (
            `This browser cannot read the file’s length: ${watermark ? '660' : '1,000'} credits a minute of source per language.`
          ) : (
            `${watermark ? '660' : '1,000'} credits a minute of source per language. Choose a file to see the total.`
          )}
        </span>
      </div>

      {pending && kind === 'file' && <ProgressBar label="Uploading" value={progress} />}
      {error && <FormMessage>{error}</FormMessage>}

      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || sourceMissing} aria-busy={pending}>
          {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
          {pending ? 'Starting…' : 'Start dubbing'}
        </Button>
      </div>
    </form>
  );
}

function targetNote(
  entry: DubbingLanguageEntry | undefined,
  languages: DubbingLanguageEntry[],
): string | null {
  if (!entry) return 'Languages this server cannot dub into are shown, and say what is missing.';
  const how =
    entry.translation === 'offline'
      ? 'Translated offline'
      : entry.translation === 'offline_pivot'
        ? `Translated offline ${targetAvailability(entry, languages).note ?? ''}`.trim()
        : entry.translation === 'server'
          ? 'Translated by the configured translation server'
          : 'No translation';
  const voice =
    entry.voices === 'neural'
      ? 'a neural voice'
      : entry.voices === 'classic'
        ? 'eSpeak NG’s voice'
        : 'no voice';
  return `${how}, spoken by ${voice}.`;
}

function LanguageSelect({
  id,
  label,
  value,
  onChange,
  options,
  error,
  note,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string; disabled: boolean }[];
  error?: string | null;
  note?: string | null;
}) {
  const shown = error ?? note;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      <select
        id={id}
        className={inputClasses}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={shown ? `${id}-note` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
      {shown && (
        <p
          id={`${id}-note`}
          className={clsx('text-xs', error ? 'text-danger' : 'text-fg-muted')}
          role={error ? 'alert' : undefined}
        >
          {shown}
        </p>
      )}
    </div>
  );
}
