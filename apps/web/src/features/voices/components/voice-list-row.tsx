import type { VoiceResponse } from '@parla/contracts';
import type { ReactNode } from 'react';
import { describeVoiceTraits } from '../voice-labels';
import { isVoiceUnavailable } from '../voice-rules';
import { PreviewButton } from './preview-button';
import { VoiceStatusBadges } from './voice-status-badges';

export interface VoiceListRowProps {
  voice: VoiceResponse;
  playing: boolean;
  onPreview: (() => void) | undefined;
  /** Buttons on the right (e.g. "Remove from collection"). */
  actions?: ReactNode;
}

/** A voice in a list to browse: preview, name and badges, description and traits. */
export function VoiceListRow({ voice, playing, onPreview, actions }: VoiceListRowProps) {
  const headingId = `voice-row-${voice.voice_id}`;
  const traits = describeVoiceTraits(voice.labels);
  const unavailable = isVoiceUnavailable(voice);
  return (
    <li aria-labelledby={headingId} className="flex items-start gap-3 px-4 py-4 sm:px-5">
      <PreviewButton
        label={`the preview of ${voice.name}`}
        playing={playing}
        onToggle={unavailable ? undefined : onPreview}
        unavailableReason={unavailable ? 'This voice is unavailable' : 'No preview yet'}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="truncate text-sm font-semibold">
            {voice.name}
          </h3>
          <VoiceStatusBadges voice={voice} />
        </div>
        {voice.description && <p className="line-clamp-2 text-sm text-fg-muted">{voice.description}</p>}
        {traits.length > 0 && <p className="text-xs text-fg-muted">{traits.join(' · ')}</p>}
      </div>
      {actions && <div className="flex shrink-0 items-center gap-1">{actions}</div>}
    </li>
  );
}
