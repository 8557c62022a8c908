import { PVC_MIN_TRAINING_SECONDS, type VoiceResponse } from '@parla/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { Card, CardContent } from '../../../ui/card';
import { Skeleton } from '../../../ui/skeleton';
import { usePvcSeparations } from '../api/get-pvc-speakers';
import { type PvcStep, pvcStepTitles, resumeStep, selectedSeconds, trainingState } from '../pvc-rules';
import { PvcSamplesStep } from './pvc-samples-step';
import { PvcSpeakersStep } from './pvc-speakers-step';
import { PvcStepsNav } from './pvc-steps-nav';
import { PvcTrainStep } from './pvc-train-step';
import { PvcVerifyStep } from './pvc-verify-step';

/**
 * A professional clone's flow after its creation: samples, speakers, verification and training. It opens
 * where the voice stopped (resumeStep) and lets the user go back to any step the voice has reached.
 */
export function PvcFlow({ voice }: { voice: VoiceResponse }) {
  const headingId = useId();
  const samples = voice.samples ?? [];
  const { separations, pending } = usePvcSeparations(
    voice.voice_id,
    samples.map((sample) => sample.sample_id),
  );
  const [chosen, setChosen] = useState<PvcStep | null>(null);
  // The step to open on is read once, when the voice and its separations have loaded.
  useEffect(() => {
    if (chosen === null && !pending) setChosen(resumeStep(voice, separations));
  }, [chosen, pending, voice, separations]);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const open = (step: PvcStep) => {
    setChosen(step);
    // The new step's heading takes the focus, so keyboard and screen reader users land on it.
    requestAnimationFrame(() => stepHeading.current?.focus());
  };

  if (chosen === null)
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <span className="sr-only">Loading the voice…</span>
        <Skeleton className="h-9 w-full max-w-lg" />
        <Skeleton className="h-64 w-full" />
      </div>
    );

  const state = trainingState(voice);
  const training = state === 'queued' || state === 'fine_tuning';
  const verified = voice.voice_verification.is_verified;
  const enough = selectedSeconds(samples, separations) >= PVC_MIN_TRAINING_SECONDS;
  const done = new Set<PvcStep>(['details']);
  if (enough) done.add('samples').add('speakers');
  if (verified) done.add('verify');
  if (state === 'fine_tuned') done.add('train');
  const reachable = new Set<PvcStep>();
  if (!training) {
    reachable.add('samples');
    if (samples.length > 0) reachable.add('speakers');
    if (enough || verified) reachable.add('verify');
  }
  if (verified || state !== 'not_started') reachable.add('train');
  // While it trains, the training is the only step to show.
  const current: PvcStep = training ? 'train' : chosen;

  return (
    <div className="flex flex-col gap-4">
      <PvcStepsNav current={current} done={done} reachable={reachable} onOpen={open} />
      <Card aria-labelledby={headingId}>
        <CardContent className="flex flex-col gap-4 py-5">
          <h2
            id={headingId}
            ref={stepHeading}
            tabIndex={-1}
            className="text-lg font-semibold tracking-tight focus:outline-none"
          >
            {pvcStepTitles[current]}
          </h2>
          {current === 'samples' && <PvcSamplesStep voice={voice} onContinue={() => open('speakers')} />}
          {current === 'speakers' && (
            <PvcSpeakersStep voice={voice} separations={separations} onContinue={() => open('verify')} />
          )}
          {current === 'verify' && (
            <PvcVerifyStep voice={voice} onContinue={() => open('train')} onBack={() => open('speakers')} />
          )}
          {current === 'train' && <PvcTrainStep voice={voice} separations={separations} />}
        </CardContent>
      </Card>
    </div>
  );
}
