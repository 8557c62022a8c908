import type { LibraryVoice } from '@parla/contracts';
import { Link } from 'react-router';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { languageName } from '../voice-labels';
import { describeLibraryVoice, sharedVoicePath } from '../voice-rules';
import { BuiltInBadge } from './built-in-badge';
import { PreviewButton } from './preview-button';

const numbers = new Intl.NumberFormat('en-US');

export interface LibraryVoiceCardProps {
  voice: LibraryVoice;
  /** The signed-in user shares this voice (their own is in their voices already). */
  own: boolean;
  playing: boolean;
  onPreview: (() => void) | undefined;
  onAdd: () => void;
}

/** One voice of the library: preview, name, traits, description, how often it was added, and Add. */
export function LibraryVoiceCard({ voice, own, playing, onPreview, onAdd }: LibraryVoiceCardProps) {
  const headingId = `library-${voice.voice_id}`;
  const language = languageName(voice.language);
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 shadow-xs"
    >
      <div className="flex items-start gap-3">
        <PreviewButton label={`the preview of ${voice.name}`} playing={playing} onToggle={onPreview} />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <h3 id={headingId} className="truncate text-sm font-semibold">
            <Link to={sharedVoicePath(voice.public_owner_id, voice.voice_id)} className="hover:underline">
              {voice.name}
            </Link>
          </h3>
          <span className="flex flex-wrap gap-1">
            {voice.featured && <BuiltInBadge />}
            {describeLibraryVoice(voice).map((trait) => (
              <Badge key={trait}>{trait}</Badge>
            ))}
            {voice.live_moderation_enabled && <Badge tone="warning">Live moderation</Badge>}
          </span>
        </div>
      </div>
      {voice.description && <p className="line-clamp-3 text-sm text-fg-muted">{voice.description}</p>}
      <div className="mt-auto flex items-center justify-between gap-3 border-t border-line pt-3">
        <p className="text-xs text-fg-muted tabular-nums">
          {[
            voice.cloned_by_count === 0
              ? 'Not added yet'
              : `Added ${numbers.format(voice.cloned_by_count)} ${voice.cloned_by_count === 1 ? 'time' : 'times'}`,
            language,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        {own ? (
          <Badge>Yours</Badge>
        ) : voice.is_added_by_user ? (
          <Badge tone="success" dot>
            Added
          </Badge>
        ) : (
          <Button size="sm" onClick={onAdd} aria-label={`Add ${voice.name} to my voices`}>
            Add
          </Button>
        )}
      </div>
    </li>
  );
}
