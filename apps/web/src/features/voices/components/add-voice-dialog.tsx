import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Dialog } from '../../../ui/dialog';
import { ArrowUpRightIcon } from '../../../ui/icons';
import { pvcPath } from '../pvc-rules';
import { InstantCloneForm } from './instant-clone-form';
import { VoiceDesignForm } from './voice-design-form';

/** The steps of adding a voice; `cloneVoice` and `designVoice` are also the page's `creationType`. */
export type AddVoiceStep = 'choose' | 'cloneVoice' | 'designVoice';

export interface AddVoiceDialogProps {
  /** The open step, or null when the dialog is closed. */
  step: AddVoiceStep | null;
  onStepChange: (step: AddVoiceStep) => void;
  onClose: () => void;
  /** The plan allows instant cloning; undefined while the plan loads. */
  canClone: boolean | undefined;
  /** The plan allows professional cloning (from Creator); undefined while the plan loads. */
  canCloneProfessionally?: boolean | undefined;
  onCreated: (voiceId: string) => void;
}

const titles: Record<AddVoiceStep, string> = {
  choose: 'Add a voice',
  cloneVoice: 'Instant voice clone',
  designVoice: 'Voice design',
};

const descriptions: Record<AddVoiceStep, string> = {
  choose:
    'Clone a voice from recordings — instantly, or trained on long ones — design one from words, or take one from the library.',
  cloneVoice: 'A voice from a few recordings of one speaker.',
  designVoice: 'Describe a voice, listen to three previews and keep the one you like.',
};

/**
 * "Add a voice" (history/voices §2 voice lab): three ways in — an instant clone, a design, or the library —
 * and the form of the one chosen. Escape, the overlay and Cancel close it.
 */
export function AddVoiceDialog({
  step,
  onStepChange,
  onClose,
  canClone,
  canCloneProfessionally,
  onCreated,
}: AddVoiceDialogProps) {
  return (
    <Dialog
      open={step !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={titles[step ?? 'choose']}
      description={descriptions[step ?? 'choose']}
      size="2xl"
    >
      {step === 'choose' && (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2" aria-label="Ways to add a voice">
          <li>
            <ChoiceCard
              title="Instant voice clone"
              text={
                canClone === false
                  ? 'From recordings. Needs the Starter plan.'
                  : 'From one or more recordings of the voice.'
              }
              onChoose={() => onStepChange('cloneVoice')}
            />
          </li>
          <li>
            <Link
              to={pvcPath()}
              className="flex h-full flex-col gap-1.5 rounded-xl border border-line bg-surface p-4 text-left transition-colors hover:border-fg-muted/40 hover:bg-subtle"
            >
              <span className="text-sm font-semibold">Professional voice clone</span>
              <span className="text-xs text-fg-muted">
                {canCloneProfessionally === false
                  ? 'Trained on long recordings of your voice. Needs the Creator plan.'
                  : 'Trained on long recordings of your own voice, verified by reading a sentence aloud.'}
              </span>
            </Link>
          </li>
          <li>
            <ChoiceCard
              title="Voice design"
              text="From a description: gender, age, accent, pitch, pace."
              onChoose={() => onStepChange('designVoice')}
            />
          </li>
          <li>
            <Link
              to="/app/voice-library"
              className="flex h-full flex-col gap-1.5 rounded-xl border border-line bg-surface p-4 text-left transition-colors hover:border-fg-muted/40 hover:bg-subtle"
            >
              <span className="flex items-center gap-1 text-sm font-semibold">
                From the library <ArrowUpRightIcon className="text-fg-muted" />
              </span>
              <span className="text-xs text-fg-muted">
                Voices other people share, added under a name you choose.
              </span>
            </Link>
          </li>
        </ul>
      )}
      {step !== null && step !== 'choose' && <BackToChoices onBack={() => onStepChange('choose')} />}
      {step === 'cloneVoice' && (
        <InstantCloneForm
          canClone={canClone}
          onCreated={onCreated}
          onCancel={onClose}
          onDesignInstead={() => onStepChange('designVoice')}
        />
      )}
      {step === 'designVoice' && <VoiceDesignForm onCreated={onCreated} onCancel={onClose} />}
    </Dialog>
  );
}

function ChoiceCard({ title, text, onChoose }: { title: string; text: ReactNode; onChoose: () => void }) {
  return (
    <button
      type="button"
      onClick={onChoose}
      className="flex h-full w-full cursor-pointer flex-col gap-1.5 rounded-xl border border-line bg-surface p-4 text-left transition-colors hover:border-fg-muted/40 hover:bg-subtle"
    >
      <span className="text-sm font-semibold">{title}</span>
      <span className="text-xs text-fg-muted">{text}</span>
    </button>
  );
}

function BackToChoices({ onBack }: { onBack: () => void }) {
  return (
    <button
      type="button"
      onClick={onBack}
      className="-mt-2 self-start rounded-md text-sm font-medium text-fg-muted hover:text-fg"
    >
      ← Other ways to add a voice
    </button>
  );
}
