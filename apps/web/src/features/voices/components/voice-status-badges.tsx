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
import { PvcStageBadge } from './pvc-stage-badge';

/**
 * A voice's badges: its kind (cloned, designed, professional, from the library), and the states that
 * matter — shared (in the library, or by a workspace member with the caller, §7), unavailable (§5
 * copied_disabled), blocked or awaiting a check (§3 safety_control), and not verified yet (§5 verification);
 * for a professional clone, its stage (draft, verifying, training, ready, failed).
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
      {/* A professional clone shows its stage, which covers its verification (issue 18 item 5). */}
      {voice.category === 'professional' && voice.is_owner ? (
        <PvcStageBadge voice={voice} />
      ) : (
        needsVoiceVerification(voice) && (
          <Badge tone="warning" dot>
            Not verified
          </Badge>
        )
      )}
      {sharing?.live_moderation_enabled && <Badge tone="warning">Live moderation</Badge>}
    </span>
  );
}
