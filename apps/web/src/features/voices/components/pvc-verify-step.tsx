import type { VoiceResponse } from '@parla/contracts';
import { Button } from '../../../ui/button';
import { CheckCircleIcon } from '../../../ui/icons';
import { VerifyVoiceForm } from './verify-voice-dialog';

export interface PvcVerifyStepProps {
  voice: VoiceResponse;
  onContinue: () => void;
  onBack: () => void;
}

/**
 * Verification (§7 `…/captcha`): the owner reads a sentence aloud — recorded here or uploaded — and the
 * server checks that it says the sentence and sounds like the samples. A refusal says why and offers a
 * new sentence; a pass moves on to the training.
 */
export function PvcVerifyStep({ voice, onContinue, onBack }: PvcVerifyStepProps) {
  if (voice.voice_verification.is_verified)
    return (
      <div className="flex flex-col gap-4">
        <p className="flex items-center gap-2 text-sm font-medium text-success">
          <CheckCircleIcon aria-hidden="true" />
          Verified: the reading matched the sentence and the samples.
        </p>
        <div className="flex justify-end">
          <Button onClick={onContinue}>Continue to training</Button>
        </div>
      </div>
    );
  const failures = voice.voice_verification.verification_failures;
  const lastFailure = failures.at(-1);
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-fg-muted">
        Show that this is your voice: read the sentence below aloud, in the same voice as the samples. Record
        it here with your microphone, or upload a recording of it.
      </p>
      {lastFailure && (
        <p className="rounded-lg bg-warning-soft px-3 py-2 text-sm text-warning">
          The last attempt did not pass: {lastFailure}
        </p>
      )}
      <VerifyVoiceForm
        voice={voice}
        onVerified={onContinue}
        onCancel={onBack}
        submitLabel="Send the reading"
      />
    </div>
  );
}
