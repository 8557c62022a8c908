import type { ModelResponse, VoiceResponse } from '@parla/contracts';
import { EditorSection, SelectField } from '../../../ui/editor-fields';
import { Slider } from '../../../ui/slider';
import { VoicePicker } from '../../voices';
import { errorAt, withTts } from '../agent-editor-rules';
import type { EditorTabProps } from './editor-tab-props';

export interface VoiceTabProps extends EditorTabProps {
  /** The voices of the workspace (`GET /v1/voices`), premade ones among them. */
  voices: readonly VoiceResponse[];
  /** The speech models (`GET /v1/models`). */
  models: readonly ModelResponse[];
}

/** The Voice tab: which voice speaks, with which model, and how (stability, similarity, speed). */
export function VoiceTab({ draft, edit, errors, voices, models }: VoiceTabProps) {
  const tts = draft.conversation_config.tts;
  const selected = voices.find((voice) => voice.voice_id === tts.voice_id);
  const speaking = models.filter((model) => model.can_do_text_to_speech);
  const modelOptions = speaking.map((model) => ({ value: model.model_id, label: model.name }));
  // A model the list does not hold (retired, or an alias) stays choosable as it is.
  if (!speaking.some((model) => model.model_id === tts.model_id))
    modelOptions.unshift({ value: tts.model_id, label: tts.model_id });
  const voiceError = errorAt(errors, 'conversation_config.tts.voice_id');
  return (
    <div className="flex flex-col gap-4">
      <EditorSection
        title="Voice"
        description="The voice the agent speaks with, from your voices and the premade ones."
      >
        <VoicePicker
          label="Agent voice"
          voices={voices}
          selected={selected}
          invalid={Boolean(voiceError)}
          onSelect={(voice) => edit((d) => withTts(d, { voice_id: voice.voice_id }))}
        />
        {!selected && (
          <p className="text-sm text-warning">
            The agent’s voice ({tts.voice_id}) is not among your voices any more: choose another.
          </p>
        )}
        {voiceError && (
          <p role="alert" className="text-sm text-danger">
            {voiceError}
          </p>
        )}
        <SelectField
          label="Model"
          className="max-w-sm"
          value={tts.model_id}
          options={modelOptions}
          onChange={(event) => {
            const model_id = event.target.value;
            edit((d) => withTts(d, { model_id }));
          }}
          description="Fast models answer sooner; a conversation waits for the first audio of each answer."
          error={errorAt(errors, 'conversation_config.tts.model_id')}
        />
      </EditorSection>
      <EditorSection title="Voice settings">
        <Slider
          label="Stability"
          value={tts.stability}
          onValueChange={(stability) => edit((d) => withTts(d, { stability }))}
          minLabel="More expressive"
          maxLabel="More stable"
          hint={errorAt(errors, 'conversation_config.tts.stability')}
        />
        <Slider
          label="Similarity"
          value={tts.similarity_boost}
          onValueChange={(similarity_boost) => edit((d) => withTts(d, { similarity_boost }))}
          minLabel="Low"
          maxLabel="High"
          hint={errorAt(errors, 'conversation_config.tts.similarity_boost')}
        />
        <Slider
          label="Speed"
          value={tts.speed}
          min={0.7}
          max={1.2}
          step={0.01}
          onValueChange={(speed) => edit((d) => withTts(d, { speed }))}
          minLabel="Slower"
          maxLabel="Faster"
          hint={errorAt(errors, 'conversation_config.tts.speed')}
        />
      </EditorSection>
    </div>
  );
}
