import { FormMessage } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import type { SpeakAsYouTypeStatus } from '../use-speak-as-you-type';

const numbers = new Intl.NumberFormat('en-US');
const seconds = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export interface SpeakAsYouTypeProps {
  status: SpeakAsYouTypeStatus;
  error: string | null;
  /** Characters spoken since it was turned on. */
  spoken: number;
  /** Seconds of audio received and played since it was turned on. */
  audioSeconds: number;
  /** Audio is playing now. */
  speaking: boolean;
  /** Why it cannot be turned on (no voice or model yet), or null. */
  unavailable: string | null;
  onTurnOn: () => void;
  onTurnOff: () => void;
}

/** The "Speak as I type" switch of the text-to-speech page, its connection state and its errors. */
export function SpeakAsYouType({
  status,
  error,
  spoken,
  audioSeconds,
  speaking,
  unavailable,
  onTurnOn,
  onTurnOff,
}: SpeakAsYouTypeProps) {
  const on = status === 'connecting' || status === 'on';
  const state =
    status === 'connecting'
      ? 'Connecting…'
      : status === 'finishing'
        ? 'Finishing the last words…'
        : status === 'on'
          ? speaking
            ? 'Speaking…'
            : 'On: finish a sentence or pause to hear it.'
          : null;
  return (
    <div className="flex flex-col gap-2 border-t border-line px-5 py-3">
      <Switch
        label="Speak as I type"
        checked={on}
        disabled={status === 'finishing' || (!on && unavailable !== null)}
        onCheckedChange={(checked) => (checked ? onTurnOn() : onTurnOff())}
        description={
          unavailable ??
          'Hear what you type from now on, sentence by sentence, in the chosen voice. Credits are charged for each character spoken.'
        }
      />
      {(state || spoken > 0) && (
        <p className="flex flex-wrap gap-x-3 text-xs text-fg-muted tabular-nums" aria-live="polite">
          {state && <span className={speaking ? 'font-medium text-fg' : undefined}>{state}</span>}
          {spoken > 0 && (
            <span>
              {numbers.format(spoken)} {spoken === 1 ? 'character' : 'characters'} spoken
            </span>
          )}
          {audioSeconds > 0 && <span>{seconds.format(audioSeconds)} s of audio</span>}
        </p>
      )}
      {error && <FormMessage>{error}</FormMessage>}
    </div>
  );
}
