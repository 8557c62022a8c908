import type { VoiceResponse } from '@parla/contracts';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { Button, getButtonClasses } from '../../../ui/button';
import { ShareIcon, TrashIcon } from '../../../ui/icons';
import { describePvcStage, pvcPath, pvcStage } from '../pvc-rules';
import { describeVoiceTraits } from '../voice-labels';
import { canShareVoice, isLibraryCopy, isVoiceUnavailable } from '../voice-rules';
import { canVerifyVoice, needsVoiceVerification } from '../voice-verification-rules';
import { VoiceRowSummary } from './voice-list-row';

export interface OwnVoiceRowProps {
  voice: VoiceResponse;
  playing: boolean;
  /** Plays or pauses the voice's preview; absent when it has none. */
  onPreview: (() => void) | undefined;
  onEdit: () => void;
  onShare: () => void;
  /** Opens the workspace sharing dialog; offered only where given (the caller created the voice). */
  onShareWithWorkspace?: (() => void) | undefined;
  /** Opens the verify dialog; offered while the voice needs verification. */
  onVerify: () => void;
  onDelete: () => void;
}

/** One of "My voices": preview, name and badges, labels, when it was made, its samples, and its actions. */
export function OwnVoiceRow({
  voice,
  playing,
  onPreview,
  onEdit,
  onShare,
  onShareWithWorkspace,
  onVerify,
  onDelete,
}: OwnVoiceRowProps) {
  const headingId = `voice-${voice.voice_id}`;
  const sampleCount = voice.samples?.length ?? 0;
  const copy = isLibraryCopy(voice);
  const unavailable = isVoiceUnavailable(voice);
  // A professional clone is verified within its own flow, which its row links to.
  const professional = voice.category === 'professional' && voice.is_owner;
  const unverified = !professional && needsVoiceVerification(voice) && canVerifyVoice(voice);
  const facts = [
    ...describeVoiceTraits(voice.labels),
    voice.created_at_unix !== null
      ? `${copy ? 'Added' : 'Created'} ${formatDate(fromUnixSeconds(voice.created_at_unix))}`
      : null,
    // A library copy's samples stay with its owner; a designed voice has none unless some were added.
    copy || (voice.category === 'generated' && sampleCount === 0)
      ? null
      : `${sampleCount} ${sampleCount === 1 ? 'sample' : 'samples'}`,
  ].filter((fact): fact is string => Boolean(fact));

  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-start sm:px-5"
    >
      <div className="flex min-w-0 flex-1 gap-3">
        <VoiceRowSummary
          voice={voice}
          headingId={headingId}
          playing={playing}
          onPreview={onPreview}
          besideName={
            unverified && (
              <Button variant="secondary" size="sm" onClick={onVerify} aria-label={`Verify ${voice.name}`}>
                Verify
              </Button>
            )
          }
        >
          <p className="text-xs text-fg-muted">{facts.join(' · ')}</p>
          {unavailable && (
            <p className="text-xs text-danger">
              Its owner stopped sharing this voice in the library, so it can no longer be used. It works again
              if they share it again; you can also delete it.
            </p>
          )}
          {voice.safety_control === 'BAN' && (
            <p className="text-xs text-danger">Blocked by moderation: it cannot be used or shared.</p>
          )}
          {professional && (
            <p className={pvcStage(voice) === 'failed' ? 'text-xs text-danger' : 'text-xs text-fg-muted'}>
              {describePvcStage(voice)}
            </p>
          )}
          {unverified && (
            <p className="text-xs text-warning">
              It cannot speak until you verify it: read a short sentence aloud to show the voice is yours.
            </p>
          )}
          {voice.safety_control === 'CAPTCHA' && (
            <p className="text-xs text-warning">Moderation asked for a check that you may use this voice.</p>
          )}
        </VoiceRowSummary>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-1 pl-12 sm:pl-0">
        {professional && (
          <Link
            to={pvcPath(voice.voice_id)}
            className={getButtonClasses(pvcStage(voice) === 'ready' ? 'ghost' : 'secondary', 'sm')}
            aria-label={`${pvcStage(voice) === 'ready' ? 'Open' : 'Continue'} ${voice.name}`}
          >
            {pvcStage(voice) === 'ready' ? 'Open' : 'Continue'}
          </Link>
        )}
        <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${voice.name}`}>
          Edit
        </Button>
        {/* A voice a member shared with the caller is theirs to publish, not the caller's. */}
        {canShareVoice(voice) && voice.is_owner && (
          <Button variant="ghost" size="sm" onClick={onShare} aria-label={`Share ${voice.name}`}>
            <ShareIcon />
            Share
          </Button>
        )}
        {onShareWithWorkspace && voice.is_owner && (
          <Button
            variant="ghost"
            size="sm"
            onClick={onShareWithWorkspace}
            aria-label={`Share ${voice.name} with your workspace`}
            title="Share with your workspace"
          >
            Workspace
          </Button>
        )}
        <Button
          variant="ghost"
          size="icon"
          className="text-base hover:text-danger"
          onClick={onDelete}
          aria-label={`Delete ${voice.name}`}
          title="Delete"
        >
          <TrashIcon />
        </Button>
      </div>
    </li>
  );
}
