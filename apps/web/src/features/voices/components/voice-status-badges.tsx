import type { VoiceResponse } from '@parla/contracts';
import { Badge } from '../../../ui/badge';
import {
  getOwnVoiceKind,
  isSharedWithMe,
  isVoiceUnavailable,
  ownVoiceKindLabels,
  readVoiceSharing,
} from '../voice-rules';
import { needsVoiceVerification } from '../voice-verification-rules';

/**
 * A voice's badges: its kind (cloned, designed, professional, from the library), and the states that
 * matter — shared (in the library, or by a workspace member with the caller, §7), unavailable (§5
 * copied_disabled), blocked or awaiting a check (§3 safety_control), and not verified yet (§5 verification).
 */
export function VoiceStatusBadges({ voice, showKind = true }: { voice: VoiceResponse; showKind?: boolean }) {
  const sharing = readVoiceSharing(voice);
  const kind = getOwnVoiceKind(voice);
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      {showKind && kind !== 'premade' && (
        <Badge tone={kind === 'library' ? 'accent' : 'neutral'}>{ownVoiceKindLabels[kind]}</Badge>
      )}
      {sharing?.status === 'enabled' && (
        <Badge tone="success" dot>
          Shared
        </Badge>
      )}
      {isSharedWithMe(voice) && <Badge tone="accent">Shared with you</Badge>}
      {isVoiceUnavailable(voice) && (
        <Badge tone="danger" dot>
          Unavailable
        </Badge>
      )}
      {voice.safety_control === 'BAN' && (
        <Badge tone="danger" dot>
          Blocked
        </Badge>
      )}
      {voice.safety_control === 'CAPTCHA' && (
        <Badge tone="warning" dot>
          Check needed
        </Badge>
      )}
      {needsVoiceVerification(voice) && (
        <Badge tone="warning" dot>
          Not verified
        </Badge>
      )}
      {sharing?.live_moderation_enabled && <Badge tone="warning">Live moderation</Badge>}
    </span>
  );
}
