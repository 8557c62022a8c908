import type { VoiceResponse } from '@parla/contracts';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import type { VoiceSafetyAlert, VoiceSafetyDialog as VoiceSafetyDialogKind } from '../voice-safety-rules';
import { canVerifyVoice } from '../voice-verification-rules';

const texts: Record<VoiceSafetyDialogKind, { title: string; body: (names: string) => string }> = {
  voiceBlocked: {
    title: 'Voice blocked',
    body: (names) =>
      `Moderation has blocked ${names}. A blocked voice cannot be used to generate speech or be shared. You can still delete it.`,
  },
  voiceCaptcha: {
    title: 'Voice check needed',
    body: (names) =>
      `Moderation has asked for a check on ${names}: whoever made it must show that the voice is theirs, or that they have the speaker's consent. Keep that consent at hand; until the check is done the voice may be restricted.`,
  },
};

/**
 * history/voices §4 "Voice safety": the voiceBlocked and voiceCaptcha dialogs. The voiceCaptcha one offers
 * to verify each of the user's own voices it names (a library copy is its owner's to verify).
 */
export function VoiceSafetyDialog({
  alert,
  onClose,
  onVerify,
}: {
  alert: VoiceSafetyAlert | undefined;
  onClose: () => void;
  /** Opens the verify dialog for one of the voices; the alert is closed first. */
  onVerify: (voice: VoiceResponse) => void;
}) {
  const text = alert ? texts[alert.kind] : undefined;
  const names = alert ? formatNames(alert.voices.map((voice) => voice.name)) : '';
  const verifiable = alert?.kind === 'voiceCaptcha' ? alert.voices.filter(canVerifyVoice) : [];
  return (
    <Dialog
      open={alert !== undefined}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={text?.title ?? ''}
      description={text?.body(names)}
      footer={
        <>
          {verifiable.map((voice) => (
            <Button
              key={voice.voice_id}
              variant="secondary"
              onClick={() => {
                onClose();
                onVerify(voice);
              }}
            >
              Verify {voice.name}
            </Button>
          ))}
          <Button onClick={onClose}>OK</Button>
        </>
      }
    />
  );
}

/** "A", "A and B", "A, B and C". */
function formatNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? 'a voice';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
