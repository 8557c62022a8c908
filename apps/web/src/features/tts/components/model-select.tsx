import type { ModelResponse } from '@parla/contracts';
import { useId } from 'react';
import { Link } from 'react-router';
import { inputClasses } from '../../../ui/field';

export interface ModelSelectProps {
  models: readonly ModelResponse[];
  value: string | undefined;
  onChange: (modelId: string) => void;
  /** Which models are offered: text-to-speech ones unless told; `voice_conversion` for speech to speech. */
  capability?: 'text_to_speech' | 'voice_conversion';
}

/** The speech model: Parla's own first, then the public model ids clients send, which map onto them. */
export function ModelSelect({ models, value, onChange, capability = 'text_to_speech' }: ModelSelectProps) {
  const id = useId();
  const speaking = models.filter((m) =>
    capability === 'voice_conversion' ? m.can_do_voice_conversion : m.can_do_text_to_speech,
  );
  const own = speaking.filter((m) => !m.alias_of);
  const aliases = speaking.filter((m) => m.alias_of);
  const selected = speaking.find((m) => m.model_id === value);
  const target = selected?.alias_of ? speaking.find((m) => m.model_id === selected.alias_of) : selected;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        Model
      </label>
      <select
        id={id}
        className={inputClasses}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-note`}
      >
        <optgroup label="Parla models">
          {own.map((m) => (
            <option key={m.model_id} value={m.model_id}>
              {m.name}
            </option>
          ))}
        </optgroup>
        <optgroup label="Public model ids">
          {aliases.map((m) => (
            <option key={m.model_id} value={m.model_id}>
              {m.name}
            </option>
          ))}
        </optgroup>
      </select>
      <p id={`${id}-note`} className="text-xs text-fg-muted">
        {selected?.alias_of && target
          ? `The public model id ${selected.model_id}, spoken by ${target.name}. `
          : ''}
        {target?.description}
        {capability === 'text_to_speech' && selected && selected.token_cost_factor !== 1
          ? ` ${selected.token_cost_factor} credits per character.`
          : ''}{' '}
        <Link to="/app/about/models" className="font-medium text-fg underline-offset-2 hover:underline">
          About the models
        </Link>
      </p>
    </div>
  );
}
