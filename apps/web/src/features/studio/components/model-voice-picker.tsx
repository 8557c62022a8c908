import type { ModelResponse, VoiceResponse } from '@parla/contracts';
import { FormMessage } from '../../../ui/field';
import { VoicePicker } from '../../voices';
import { unspeakableVoiceMessage, voicesForModel } from '../studio-rules';

/**
 * A project's default voice (titles or paragraphs): the picker offers only the voices `modelId` speaks,
 * and a voice chosen before that the model cannot speak (the model was changed) is flagged under it.
 */
export function ModelVoicePicker({
  label,
  voices,
  models,
  modelId,
  voiceId,
  onSelect,
}: {
  label: string;
  voices: readonly VoiceResponse[];
  models: readonly ModelResponse[];
  modelId: string;
  voiceId: string;
  onSelect: (voice: VoiceResponse) => void;
}) {
  const problem = unspeakableVoiceMessage(voiceId, voices, models, modelId);
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <VoicePicker
        label={label}
        voices={voicesForModel(voices, models, modelId)}
        selected={voices.find((v) => v.voice_id === voiceId)}
        onSelect={onSelect}
        invalid={problem !== null}
      />
      {problem && <FormMessage>{problem}</FormMessage>}
    </div>
  );
}
