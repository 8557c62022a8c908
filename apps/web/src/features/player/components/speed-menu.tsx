import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { getButtonClasses } from '../../../ui/button';
import { CheckIcon } from '../../../ui/icons';
import { formatPlaybackSpeed, isPlaybackSpeed, type PlaybackSpeed, playbackSpeeds } from '../player-rules';

export interface SpeedMenuProps {
  speed: PlaybackSpeed;
  onSpeedChange: (speed: PlaybackSpeed) => void;
}

/** The playback speed menu: the five speeds of history/voices §9, the current one ticked. */
export function SpeedMenu({ speed, onSpeedChange }: SpeedMenuProps) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label={`Playback speed ${formatPlaybackSpeed(speed)}`}
        className={`${getButtonClasses('ghost', 'sm')} w-11 px-1 tabular-nums sm:w-14 sm:px-3`}
      >
        {formatPlaybackSpeed(speed)}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          side="top"
          align="center"
          sideOffset={10}
          className="z-50 min-w-28 rounded-lg border border-line bg-surface p-1 text-fg shadow-lg dark:shadow-black/40"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-fg-muted">
            Speed
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={String(speed)}
            onValueChange={(value) => {
              const next = Number(value);
              if (isPlaybackSpeed(next)) onSpeedChange(next);
            }}
          >
            {playbackSpeeds.map((option) => (
              <DropdownMenu.RadioItem
                key={option}
                value={String(option)}
                className="relative flex cursor-pointer items-center rounded-md py-1.5 pr-3 pl-8 text-sm tabular-nums outline-none select-none data-highlighted:bg-subtle"
              >
                <DropdownMenu.ItemIndicator className="absolute left-2 inline-flex text-accent">
                  <CheckIcon />
                </DropdownMenu.ItemIndicator>
                {formatPlaybackSpeed(option)}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
