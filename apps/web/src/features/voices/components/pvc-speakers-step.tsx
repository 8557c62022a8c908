import { PVC_MIN_TRAINING_SECONDS, type SpeakerSeparation, type VoiceResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { useEffect, useId, useRef, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/field';
import { PlayIcon, SpinnerIcon } from '../../../ui/icons';
import { ProgressBar } from '../../../ui/progress-bar';
import { getPvcSpeakerAudioUrl } from '../api/get-pvc-speaker-audio';
import { useSelectPvcSpeakers } from '../api/select-pvc-speakers';
import { useSeparateSpeakers } from '../api/separate-speakers';
import { formatSeconds, selectedSeconds } from '../pvc-rules';

type Sample = NonNullable<VoiceResponse['samples']>[number];

export interface PvcSpeakersStepProps {
  voice: VoiceResponse;
  /** Each sample's separation, by sample id, once loaded. */
  separations: Readonly<Record<string, SpeakerSeparation | undefined>>;
  onContinue: () => void;
}

/** "speaker_0" as people read it: "Speaker 1". */
const speakerName = (speakerId: string) => {
  const number = /(\d+)$/.exec(speakerId)?.[1];
  return number === undefined ? speakerId : `Speaker ${Number(number) + 1}`;
};

/**
 * Speaker separation (§7 `…/separate-speakers`, `…/speakers`): for a sample where others speak too, the
 * speakers are found (a job, polled), each can be listened to, and the ones that are the voice are kept
 * for the training. Samples of the voice alone need none of it.
 */
export function PvcSpeakersStep({ voice, separations, onContinue }: PvcSpeakersStepProps) {
  const id = useId();
  const samples = voice.samples ?? [];
  const seconds = selectedSeconds(samples, separations);
  const running = samples.some((sample) => separations[sample.sample_id]?.status === 'pending');
  const enough = seconds >= PVC_MIN_TRAINING_SECONDS;
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-fg-muted">
        If other people speak in a recording, separate its speakers, listen to each and keep only the ones
        that are this voice. Recordings of the voice alone can go straight to the verification.
      </p>
      <ul aria-label="Samples and their speakers" className="flex flex-col gap-3">
        {samples.map((sample) => (
          <SampleSpeakers
            key={sample.sample_id}
            voiceId={voice.voice_id}
            sample={sample}
            separation={separations[sample.sample_id]}
          />
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p
          id={`${id}-total`}
          className={clsx('text-sm tabular-nums', enough ? 'text-fg-muted' : 'text-warning')}
        >
          {formatSeconds(seconds)} of the voice kept for training
          {!enough &&
            ` · at least ${PVC_MIN_TRAINING_SECONDS} s are needed: select more speakers or add samples`}
        </p>
        <Button onClick={onContinue} disabled={!enough || running} aria-describedby={`${id}-total`}>
          Continue to verification
        </Button>
      </div>
    </div>
  );
}

function SampleSpeakers({
  voiceId,
  sample,
  separation,
}: {
  voiceId: string;
  sample: Sample;
  separation: SpeakerSeparation | undefined;
}) {
  const headingId = useId();
  const separate = useSeparateSpeakers();
  const select = useSelectPvcSpeakers();
  const status = separation?.status;
  const speakers = Object.values(separation?.speakers ?? {});
  const selected = separation?.selected_speaker_ids ?? [];

  const start = () => separate.mutate({ voiceId, sampleId: sample.sample_id });
  const toggle = (speakerId: string, keep: boolean) => {
    const next = keep ? [...selected, speakerId] : selected.filter((s) => s !== speakerId);
    select.mutate({ voiceId, sampleId: sample.sample_id, speakerIds: next });
  };

  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-col">
          <h3 id={headingId} className="truncate text-sm font-semibold" title={sample.file_name}>
            {sample.file_name}
          </h3>
          <p className="text-xs text-fg-muted tabular-nums">{formatSeconds(sample.duration_secs)}</p>
        </div>
        {(status === undefined || status === 'not_started') && (
          <Button
            variant="secondary"
            size="sm"
            disabled={separation === undefined || separate.isPending}
            aria-busy={separate.isPending || undefined}
            onClick={start}
          >
            {separate.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Separate speakers
          </Button>
        )}
        {status === 'completed' && (
          <Button variant="ghost" size="sm" disabled={separate.isPending} onClick={start}>
            Separate again
          </Button>
        )}
      </div>
      {status === undefined && <p className="text-xs text-fg-muted">Loading…</p>}
      {status === 'not_started' && (
        <p className="text-xs text-fg-muted">The whole recording is used as the voice.</p>
      )}
      {status === 'pending' && (
        <div className="flex flex-col gap-1.5" aria-live="polite">
          <ProgressBar label={`Separating the speakers of ${sample.file_name}`} value={null} />
          <p className="text-xs text-fg-muted">
            Finding who speaks when… this takes a moment per minute of audio.
          </p>
        </div>
      )}
      {status === 'failed' && (
        <div className="flex flex-col items-start gap-2">
          <FormMessage>The speakers of this recording could not be separated.</FormMessage>
          <Button variant="secondary" size="sm" onClick={start} disabled={separate.isPending}>
            Try again
          </Button>
        </div>
      )}
      {status === 'completed' && speakers.length === 0 && (
        <p className="text-sm text-warning">No speech was found in this recording.</p>
      )}
      {status === 'completed' && speakers.length > 0 && (
        <fieldset className="flex flex-col gap-2" disabled={select.isPending}>
          <legend className="mb-1 text-xs text-fg-muted">Keep the speakers that are this voice:</legend>
          {speakers.map((speaker) => {
            const kept = selected.includes(speaker.speaker_id);
            const last = kept && selected.length === 1;
            return (
              <SpeakerRow
                key={speaker.speaker_id}
                voiceId={voiceId}
                sampleId={sample.sample_id}
                speakerId={speaker.speaker_id}
                seconds={speaker.duration_secs}
                kept={kept}
                lastKept={last}
                onToggle={(keep) => toggle(speaker.speaker_id, keep)}
              />
            );
          })}
        </fieldset>
      )}
      {(separate.error || select.error) && (
        <FormMessage>{getToastMessage(separate.error ?? select.error)}</FormMessage>
      )}
    </li>
  );
}

function SpeakerRow({
  voiceId,
  sampleId,
  speakerId,
  seconds,
  kept,
  lastKept,
  onToggle,
}: {
  voiceId: string;
  sampleId: string;
  speakerId: string;
  seconds: number;
  kept: boolean;
  lastKept: boolean;
  onToggle: (keep: boolean) => void;
}) {
  const name = speakerName(speakerId);
  const [url, setUrl] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);

  const listen = async () => {
    setLoading(true);
    setError(null);
    controller.current = new AbortController();
    try {
      setUrl(await getPvcSpeakerAudioUrl(voiceId, sampleId, speakerId, controller.current.signal));
    } catch (cause) {
      if (!controller.current.signal.aborted) setError(getToastMessage(cause));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-line bg-subtle/40 px-3 py-2">
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2.5 text-sm text-fg">
          <input
            type="checkbox"
            checked={kept}
            disabled={lastKept}
            title={lastKept ? 'Keep at least one speaker of each separated recording' : undefined}
            onChange={(event) => onToggle(event.target.checked)}
            className="size-4 shrink-0 cursor-pointer accent-accent disabled:cursor-not-allowed"
          />
          <span className="truncate">
            {name} <span className="text-fg-muted tabular-nums">· {formatSeconds(seconds)}</span>
          </span>
        </label>
        {!url && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => void listen()}
            disabled={loading}
            aria-busy={loading || undefined}
            aria-label={`Listen to ${name}`}
          >
            {loading ? <SpinnerIcon className="motion-safe:animate-spin" /> : <PlayIcon />}
            Listen
          </Button>
        )}
      </div>
      {url && (
        // biome-ignore lint/a11y/useMediaCaption: a speaker's own speech from the user's recording, which has no captions.
        <audio
          src={url}
          controls
          autoPlay
          preload="auto"
          aria-label={`${name}'s speech`}
          className="w-full"
        />
      )}
      {error && (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
