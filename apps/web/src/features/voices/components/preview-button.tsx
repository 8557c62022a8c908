import { Button } from '../../../ui/button';
import { PauseIcon, PlayIcon } from '../../../ui/icons';

export interface PreviewButtonProps {
  /** What is played, for the button's accessible name: "Play the preview of Rachel". */
  label: string;
  playing: boolean;
  /** Absent when there is nothing to play: the button stays, disabled, with `unavailableReason` as its tip. */
  onToggle: (() => void) | undefined;
  unavailableReason?: string;
}

/** A play/pause button for a preview or a sample in the bottom player. */
export function PreviewButton({
  label,
  playing,
  onToggle,
  unavailableReason = 'No preview yet',
}: PreviewButtonProps) {
  const name = `${playing ? 'Pause' : 'Play'} ${label}`;
  return (
    <Button
      variant="secondary"
      size="icon"
      aria-label={name}
      title={onToggle ? name : unavailableReason}
      disabled={!onToggle}
      onClick={onToggle}
    >
      {playing ? <PauseIcon /> : <PlayIcon />}
    </Button>
  );
}
