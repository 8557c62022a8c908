import type { ModelResponse } from '@parla/contracts';
import { useId } from 'react';
import { Button } from '../../../ui/button';
import { Slider } from '../../../ui/slider';
import { type EditableVoiceSettings, speedRange } from '../tts-rules';

export interface VoiceSettingsPanelProps {
  value: EditableVoiceSettings;
  onChange: (next: EditableVoiceSettings) => void;
  onReset: () => void;
  model: ModelResponse | undefined;
}

/**
 * The voice settings of a generation (history/voices §5 sliders), each with what it does on Parla's
 * engines (docs/architecture.md "Voice settings").
 */
export function VoiceSettingsPanel({ value, onChange, onReset, model }: VoiceSettingsPanelProps) {
  const boostId = useId();
  const set = <K extends keyof EditableVoiceSettings>(key: K, next: EditableVoiceSettings[K]) =>
    onChange({ ...value, [key]: next });
  return (
    <fieldset className="flex flex-col gap-5">
      <div className="flex items-center justify-between">
        <legend className="text-sm font-semibold">Voice settings</legend>
        <Button variant="ghost" size="sm" onClick={onReset}>
          Reset
        </Button>
      </div>
      <Slider
        label="Speed"
        value={value.speed}
        min={speedRange.min}
        max={speedRange.max}
        step={speedRange.step}
        minLabel="Slower"
        maxLabel="Faster"
        onValueChange={(v) => set('speed', v)}
      />
      <Slider
        label="Stability"
        value={value.stability}
        warnUntil={0.3}
        warning="Low stability widens the intonation a lot; speech can sound erratic."
        minLabel="More variable"
        maxLabel="More stable"
        onValueChange={(v) => set('stability', v)}
      />
      <Slider
        label="Similarity"
        value={value.similarity_boost}
        minLabel="Low"
        maxLabel="High"
        onValueChange={(v) => set('similarity_boost', v)}
      />
      <p className="-mt-3 text-xs text-fg-muted">
        Similarity applies to cloned voices; premade voices sound the same at any value.
      </p>
      {model?.can_use_style !== false && (
        <Slider
          label="Style exaggeration"
          value={value.style}
          warnFrom={0.5}
          warning="High style makes the intonation livelier and less steady."
          minLabel="None"
          maxLabel="Exaggerated"
          onValueChange={(v) => set('style', v)}
        />
      )}
      {model?.can_use_speaker_boost !== false && (
        <div className="flex items-start gap-3">
          <input
            id={boostId}
            type="checkbox"
            className="mt-0.5 size-4 accent-accent"
            checked={value.use_speaker_boost}
            onChange={(event) => set('use_speaker_boost', event.target.checked)}
          />
          <label htmlFor={boostId} className="flex flex-col gap-0.5 text-sm">
            <span className="font-medium">Speaker boost</span>
            <span className="text-xs text-fg-muted">Brings every sentence up to the same loudness.</span>
          </label>
        </div>
      )}
    </fieldset>
  );
}
