import type { VoiceResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { AUDIO_UPLOAD_ACCEPT } from '../../../lib/audio-upload-types';
import { formatClipDuration } from '../../../lib/recording';
import { useToast } from '../../../lib/toasts/use-toast';
import { type Recording, recordingUnavailableReason, useRecorder } from '../../../lib/use-recorder';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage } from '../../../ui/field';
import { FormActions } from '../../../ui/form-actions';
import { HiddenFileInput } from '../../../ui/hidden-file-input';
import { RefreshIcon } from '../../../ui/icons';
import { LoadError } from '../../../ui/load-error';
import { RecordingPanel } from '../../../ui/recording-panel';
import { Skeleton } from '../../../ui/skeleton';
import { useVoiceCaptcha } from '../api/get-voice-captcha';
import { useVerifyVoice } from '../api/verify-voice';
import {
  CAPTCHA_RECORDING_MAX_SECONDS,
  captchaDeadline,
  checkCaptchaRecording,
} from '../voice-verification-rules';

export interface VerifyVoiceDialogProps {
  /** The own voice to verify; the dialog is open while there is one. */
  voice: VoiceResponse | null;
  onClose: () => void;
}

/**
 * Verifying an own voice (history/voices §5): the owner reads a captcha sentence aloud — recorded here or
 * chosen as a file — and the server checks that the recording says it and sounds like the voice.
 */
export function VerifyVoiceDialog({ voice, onClose }: VerifyVoiceDialogProps) {
  return (
    <Dialog
      open={voice !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={voice ? `Verify ${voice.name}` : 'Verify voice'}
      description="Show that this voice is yours: read the sentence below aloud yourself. The recording is compared with the voice; once it passes, the voice can be used."
      size="lg"
    >
      {voice && <VerifyVoiceDialogForm key={voice.voice_id} voice={voice} onClose={onClose} />}
    </Dialog>
  );
}

/** The dialog's form: a pass is toasted and closes the dialog. */
function VerifyVoiceDialogForm({ voice, onClose }: { voice: VoiceResponse; onClose: () => void }) {
  const { toast } = useToast();
  return (
    <VerifyVoiceForm
      voice={voice}
      onCancel={onClose}
      onVerified={() => {
        toast({ title: 'Voice verified', description: `${voice.name} can now be used.`, variant: 'success' });
        onClose();
      }}
    />
  );
}

/** The reading to send: a browser recording or a chosen file, with its object URL to play it back. */
interface Take {
  blob: Blob;
  fileName: string;
  /** An object URL of `blob`, revoked when the take is replaced. */
  url: string;
  /** The time recorded; null for a chosen file. */
  seconds: number | null;
  origin: 'recording' | 'file';
}

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

export interface VerifyVoiceFormProps {
  voice: Pick<VoiceResponse, 'voice_id' | 'name'>;
  /** The reading passed: the voice is verified. */
  onVerified: () => void;
  onCancel: () => void;
  /** The submit button's text while idle. */
  submitLabel?: string;
}

/**
 * The captcha read aloud (history/voices §5; professional clones, §7 `…/captcha`): a sentence from the
 * server, recorded here or chosen as a file, sent to be checked. A refusal says why, with a way to try
 * again with a new sentence.
 */
export function VerifyVoiceForm({
  voice,
  onVerified,
  onCancel,
  submitLabel = 'Verify voice',
}: VerifyVoiceFormProps) {
  const id = useId();
  const captcha = useVoiceCaptcha(voice.voice_id);
  const verify = useVerifyVoice();
  const [take, setTake] = useState<Take | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [unavailable] = useState(recordingUnavailableReason);
  const [expiredAt, setExpiredAt] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const keepTake = (next: Omit<Take, 'url'>) => {
    setProblem(null);
    verify.reset();
    setTake({ ...next, url: URL.createObjectURL(next.blob) });
  };
  const recorder = useRecorder({
    maxSeconds: CAPTCHA_RECORDING_MAX_SECONDS,
    onRecorded: (recording: Recording) => keepTake({ ...recording, origin: 'recording' }),
  });
  const recording = recorder.status !== 'idle';

  // The take's object URL lives as long as the take; once there is one, sending it is the next step.
  const takeUrl = take?.url;
  useEffect(() => {
    if (!takeUrl) return;
    document.getElementById(`${id}-submit`)?.focus();
    return () => URL.revokeObjectURL(takeUrl);
  }, [takeUrl, id]);
  // The Stop button replaces the Record button that had the focus.
  useEffect(() => {
    if (recorder.status === 'recording') document.getElementById(`${id}-stop`)?.focus();
  }, [recorder.status, id]);

  // A sentence being fetched is no longer the one the server expects: only a settled one is shown.
  const sentence = captcha.isFetching || captcha.isError ? undefined : captcha.data;
  const deadline = sentence ? captchaDeadline(sentence.expires_at_unix, captcha.dataUpdatedAt) : null;
  useEffect(() => {
    if (deadline === null) return;
    const timer = setTimeout(() => setExpiredAt(deadline), Math.max(0, deadline - Date.now()));
    return () => clearTimeout(timer);
  }, [deadline]);
  const expired = deadline !== null && expiredAt === deadline;

  const pending = verify.isPending;
  const canRead = sentence !== undefined && !expired && !pending;

  const handleNewSentence = () => {
    verify.reset();
    setProblem(null);
    setTake(null);
    void captcha.refetch();
  };
  const handleFile = (file: File | undefined) => {
    if (!file) return;
    const refusal = checkCaptchaRecording(file);
    if (refusal) setProblem(refusal);
    else keepTake({ blob: file, fileName: file.name, seconds: null, origin: 'file' });
  };
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending || recording || !sentence) return;
    if (expired) {
      setProblem('This sentence has expired. Get a new sentence and read it aloud.');
      return;
    }
    if (!take) {
      setProblem('Record yourself reading the sentence, or choose a recording of it, first.');
      return;
    }
    // The promise, not mutate's callbacks: the voices load again on success, and a page that shows a
    // verified voice differently unmounts this form before callbacks would run.
    verify
      .mutateAsync({ voiceId: voice.voice_id, recording: take.blob, fileName: take.fileName })
      .then(onVerified)
      .catch(() => undefined); // shown from verify.error
  };

  const message = recorder.error ?? problem;

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={handleSubmit}
      noValidate
      aria-label={`Verify ${voice.name}`}
    >
      <section aria-labelledby={`${id}-sentence`} className="flex flex-col gap-2">
        <div className="flex items-center justify-between gap-2">
          <h3 id={`${id}-sentence`} className="text-sm font-medium text-fg">
            Read this aloud
          </h3>
          <Button
            variant="ghost"
            size="sm"
            disabled={captcha.isFetching || recording || pending}
            onClick={handleNewSentence}
          >
            <RefreshIcon />
            New sentence
          </Button>
        </div>
        <div aria-live="polite" aria-busy={captcha.isFetching || undefined}>
          {captcha.isFetching && <SentenceSkeleton />}
          {captcha.isError && !captcha.isFetching && (
            <LoadError error={captcha.error} onRetry={handleNewSentence} />
          )}
          {sentence && (
            <figure
              className={clsx(
                'flex flex-col gap-3 rounded-xl border p-5',
                expired ? 'border-warning/40 bg-warning-soft/40' : 'border-line bg-subtle/60',
              )}
            >
              <blockquote
                lang="en"
                className={clsx(
                  'text-2xl leading-snug font-semibold tracking-tight text-balance',
                  expired ? 'text-fg-muted line-through decoration-1' : 'text-fg',
                )}
              >
                {sentence.text}
              </blockquote>
              <figcaption className="text-xs text-fg-muted">
                {expired ? (
                  <span role="alert" className="text-warning">
                    This sentence has expired. Get a new sentence to read.
                  </span>
                ) : (
                  <>
                    Read it as written, in your own voice. Valid until{' '}
                    {timeFormat.format(deadline ?? Date.now())}.
                  </>
                )}
              </figcaption>
            </figure>
          )}
        </div>
      </section>

      <section aria-labelledby={`${id}-reading`} className="flex flex-col gap-3">
        <h3 id={`${id}-reading`} className="text-sm font-medium text-fg">
          Your reading
        </h3>
        <HiddenFileInput
          ref={fileInput}
          accept={AUDIO_UPLOAD_ACCEPT}
          label="Recording file"
          onFiles={(files) => handleFile(files?.[0])}
        />
        {recording ? (
          <RecordingPanel
            elapsed={recorder.elapsed}
            level={recorder.level}
            starting={recorder.status === 'starting'}
            maxSeconds={CAPTCHA_RECORDING_MAX_SECONDS}
            onStop={recorder.stop}
            stopId={`${id}-stop`}
            className="gap-3 rounded-xl border-2 border-dashed border-danger/40 px-6 py-6"
          />
        ) : take ? (
          <section
            aria-label="Your recording"
            className="flex flex-col gap-3 rounded-xl border border-line bg-subtle/40 p-4"
          >
            <div className="flex min-w-0 flex-col gap-0.5">
              <p className="truncate text-sm font-medium text-fg" title={take.fileName}>
                {take.fileName}
              </p>
              <p className="text-xs text-fg-muted tabular-nums">
                {take.origin === 'recording'
                  ? `Recorded here · ${formatClipDuration(take.seconds ?? 0)}`
                  : 'Chosen file'}
              </p>
            </div>
            {/* biome-ignore lint/a11y/useMediaCaption: the user's own speech, which has no captions to give. */}
            <audio
              key={take.url}
              src={take.url}
              controls
              preload="metadata"
              aria-label={`Play ${take.fileName}`}
              className="w-full"
            />
            <div className="flex flex-wrap gap-2">
              {unavailable === null && (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={!canRead}
                  onClick={() => void recorder.start()}
                >
                  <span aria-hidden="true" className="size-2 rounded-full bg-danger" />
                  Record again
                </Button>
              )}
              <Button
                variant="secondary"
                size="sm"
                disabled={!canRead}
                onClick={() => fileInput.current?.click()}
              >
                Choose another file
              </Button>
            </div>
          </section>
        ) : (
          <div className="flex flex-col items-center gap-3 rounded-xl border-2 border-dashed border-line px-6 py-6 text-center">
            <div className="flex flex-wrap items-center justify-center gap-2">
              <Button
                variant="secondary"
                disabled={!canRead || unavailable !== null}
                aria-describedby={unavailable ? `${id}-no-recorder` : undefined}
                onClick={() => void recorder.start()}
              >
                <span aria-hidden="true" className="size-2.5 rounded-full bg-danger" />
                Record
              </Button>
              <span className="text-sm text-fg-muted">or</span>
              <Button variant="secondary" disabled={!canRead} onClick={() => fileInput.current?.click()}>
                Choose a file
              </Button>
            </div>
            <p className="text-xs text-fg-muted">
              Record it here, or choose a recording of it: any audio file, of which the first minute is heard.
            </p>
            {unavailable && (
              <p id={`${id}-no-recorder`} className="max-w-sm text-xs text-fg-muted">
                {unavailable}
              </p>
            )}
          </div>
        )}
        {message && (
          <p role="alert" className="text-sm text-danger">
            {message}
          </p>
        )}
      </section>

      {verify.isError && (
        <div className="flex flex-col items-start gap-2">
          <FormMessage>{verify.error.message}</FormMessage>
          <Button variant="secondary" size="sm" onClick={handleNewSentence}>
            Try again
          </Button>
        </div>
      )}
      <FormActions
        submitLabel={pending ? 'Checking…' : submitLabel}
        pending={pending}
        submitDisabled={pending || recording || !sentence}
        onCancel={onCancel}
        submitId={`${id}-submit`}
      />
    </form>
  );
}

function SentenceSkeleton() {
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-line bg-subtle/60 p-5">
      <span className="sr-only">Getting a sentence…</span>
      <Skeleton className="h-7 w-11/12" />
      <Skeleton className="h-7 w-2/3" />
      <Skeleton className="h-3 w-40" />
    </div>
  );
}
