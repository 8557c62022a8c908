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
  return (
    <li aria-labelledby={headingId} className="flex items-start gap-3 px-4 py-4 sm:px-5">
      <VoiceRowSummary voice={voice} headingId={headingId} playing={playing} onPreview={onPreview}>
        {traits.length > 0 && <p className="text-xs text-fg-muted">{traits.join(' · ')}</p>}
      </VoiceRowSummary>
      {actions && <div className="flex shrink-0 items-center gap-1">{actions}</div>}
    </li>
  );
}

export interface VoiceRowSummaryProps {
  voice: VoiceResponse;
  /** The heading's id, which names the row. */
  headingId: string;
  playing: boolean;
  onPreview: (() => void) | undefined;
  /** Beside the name and badges (e.g. a Verify button). */
  besideName?: ReactNode;
  /** Under the description (traits, notes). */
  children?: ReactNode;
}

/** The start of a voice row: its preview button, then its name, badges and description. */
export function VoiceRowSummary({
  voice,
  headingId,
  playing,
  onPreview,
  besideName,
  children,
}: VoiceRowSummaryProps) {
  const unavailable = isVoiceUnavailable(voice);
  return (
    <>
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
          {besideName}
        </div>
        {voice.description && <p className="line-clamp-2 text-sm text-fg-muted">{voice.description}</p>}
        {children}
      </div>
    </>
  );
}
