import type { VoiceResponse } from '@parla/contracts';
import { Badge, type BadgeTone } from '../../../ui/badge';
import { type PvcStage, pvcStage, pvcStageLabels } from '../pvc-rules';

const tones: Record<PvcStage, BadgeTone> = {
  draft: 'neutral',
  verifying: 'warning',
  training: 'accent',
  ready: 'success',
  failed: 'danger',
};

/** A professional clone's stage: draft, verifying, training, ready or failed. */
export function PvcStageBadge({
  voice,
}: {
  voice: Pick<VoiceResponse, 'fine_tuning' | 'samples' | 'voice_verification'>;
}) {
  const stage = pvcStage(voice);
  return (
    <Badge tone={tones[stage]} dot>
      {pvcStageLabels[stage]}
    </Badge>
  );
}
