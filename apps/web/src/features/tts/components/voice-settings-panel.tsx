import type { ModelResponse, VoiceResponse } from '@parla/contracts';
import { useId } from 'react';
import { Button } from '../../../ui/button';
import { Slider } from '../../../ui/slider';
import { type EditableVoiceSettings, settingLimits, speedRange } from '../tts-rules';

export interface VoiceSettingsPanelProps {
  value: EditableVoiceSettings;
  onChange: (next: EditableVoiceSettings) => void;
  onReset: () => void;
  model: ModelResponse | undefined;
  /** The chosen voice: similarity applies to own voices only. */
  voice?: Pick<VoiceResponse, 'category'> | undefined;
}

/**
 * The voice settings of a generation (history/voices §5 sliders), each saying what it does to the audio
 * (docs/areas/engines.md "Voice settings and what they cost"); a setting that does nothing with this model
 * or voice is disabled with the reason (issue 18 item 3).
 */
export function VoiceSettingsPanel({ value, onChange, onReset, model, voice }: VoiceSettingsPanelProps) {
  const boostId = useId();
  const limits = settingLimits(model, voice);
  const set = <K extends keyof EditableVoiceSettings>(key: K, next: EditableVoiceSettings[K]) =>
    onChange({ ...value, [key]: next });
  return (
    <fieldset className="flex min-w-0 flex-col gap-5">
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
        warning="Low stability varies the pitch and pace a lot from sentence to sentence; speech can sound erratic."
        minLabel="More variable"
        maxLabel="More stable"
        hint="Higher keeps the intonation steady; lower widens it and varies each sentence's pitch and pace."
        onValueChange={(v) => set('stability', v)}
      />
      <Slider
        label="Similarity"
        value={value.similarity_boost}
        minLabel="Closer to the base voice"
        maxLabel="Closer to the sample"
        disabled={limits.similarity !== null}
        hint={
          limits.similarity ??
          'How far your voice moves from its base voice to the pitch and timbre of its sample.'
        }
        onValueChange={(v) => set('similarity_boost', v)}
      />
      <Slider
        label="Style exaggeration"
        value={value.style}
        warnFrom={0.5}
        warning="High style makes the intonation and loudness swing widely."
        minLabel="None"
        maxLabel="Exaggerated"
        disabled={limits.style !== null}
        hint={limits.style ?? 'Wider rises and falls of pitch, louder stressed syllables.'}
        onValueChange={(v) => set('style', v)}
      />
      <div className="flex items-start gap-3">
        <input
          id={boostId}
          type="checkbox"
          className="mt-0.5 size-4 accent-accent disabled:cursor-not-allowed disabled:opacity-60"
          checked={value.use_speaker_boost && limits.speakerBoost === null}
          disabled={limits.speakerBoost !== null}
          aria-describedby={`${boostId}-hint`}
          onChange={(event) => set('use_speaker_boost', event.target.checked)}
        />
        <label htmlFor={boostId} className="flex min-w-0 flex-col gap-0.5 text-sm">
          <span className="font-medium">Speaker boost</span>
          <span id={`${boostId}-hint`} className="text-xs text-fg-muted">
            {limits.speakerBoost ?? 'Clearer and louder: more presence around 3 kHz, the level brought up.'}
          </span>
        </label>
      </div>
    </fieldset>
  );
}
