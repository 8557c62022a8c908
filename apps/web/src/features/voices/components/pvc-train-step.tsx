import { PVC_MIN_TRAINING_SECONDS, type SpeakerSeparation, type VoiceResponse } from '@parla/contracts';
import { Link, useNavigate } from 'react-router';
import { storageKeys, writeStorage } from '../../../lib/storage-keys';
import { Button, getButtonClasses } from '../../../ui/button';
import { FormMessage } from '../../../ui/field';
import { CheckCircleIcon, SpinnerIcon } from '../../../ui/icons';
import { ProgressBar } from '../../../ui/progress-bar';
import { useTrainPvc } from '../api/train-pvc';
import { formatSeconds, selectedSeconds, trainingProgress, trainingState } from '../pvc-rules';

export interface PvcTrainStepProps {
  voice: VoiceResponse;
  separations: Readonly<Record<string, SpeakerSeparation | undefined>>;
}

/** The text-to-speech page, where the voice picker remembers the voice last chosen. */
const TEXT_TO_SPEECH_PATH = '/app/speech-synthesis/text-to-speech';

/**
 * Training (§7 `…/train`): started once verified, then followed with a progress bar (the voice is polled
 * while it trains) until it is ready — with the way to use it — or failed, with a way to train again.
 */
export function PvcTrainStep({ voice, separations }: PvcTrainStepProps) {
  const navigate = useNavigate();
  const train = useTrainPvc();
  const state = trainingState(voice);
  const progress = trainingProgress(voice);
  const seconds = selectedSeconds(voice.samples ?? [], separations);
  const start = () => train.mutate(voice.voice_id);

  if (state === 'queued' || state === 'fine_tuning')
    return (
      <div className="flex flex-col gap-2" aria-live="polite">
        <p className="text-sm font-medium text-fg">
          {state === 'queued' ? 'Waiting for a free worker…' : `Training · ${Math.round(progress * 100)} %`}
        </p>
        <ProgressBar label="Training progress" value={state === 'queued' ? 0 : progress} />
        <p className="text-xs text-fg-muted">
          You can leave this page: the training goes on, and the voice lab shows where it stands.
        </p>
      </div>
    );

  if (state === 'fine_tuned')
    return (
      <div className="flex flex-col gap-4">
        <p className="flex items-center gap-2 text-sm font-medium text-success" role="status">
          <CheckCircleIcon aria-hidden="true" />
          {voice.name} is trained and ready to speak.
        </p>
        <div className="flex flex-wrap justify-end gap-2">
          <Link to="/app/voice-lab" className={getButtonClasses('secondary', 'md')}>
            Back to the voice lab
          </Link>
          <Button
            onClick={() => {
              writeStorage(storageKeys.selectedVoice, voice.voice_id);
              void navigate(TEXT_TO_SPEECH_PATH);
            }}
          >
            Use in text to speech
          </Button>
        </div>
      </div>
    );

  return (
    <div className="flex flex-col gap-4">
      {state === 'failed' ? (
        <FormMessage>
          The training failed. Check that the samples and the speakers kept hold clear speech of the voice,
          then train again.
        </FormMessage>
      ) : (
        <p className="text-sm text-fg-muted">
          The training learns the voice from {formatSeconds(seconds)} of speech
          {seconds < PVC_MIN_TRAINING_SECONDS ? ` (at least ${PVC_MIN_TRAINING_SECONDS} s are needed)` : ''}.
          It runs on the server: you can leave this page while it trains.
        </p>
      )}
      {train.error && <FormMessage>{train.error.message}</FormMessage>}
      <div className="flex justify-end">
        <Button onClick={start} disabled={train.isPending} aria-busy={train.isPending || undefined}>
          {train.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
          {state === 'failed' ? 'Train again' : 'Start training'}
        </Button>
      </div>
    </div>
  );
}
