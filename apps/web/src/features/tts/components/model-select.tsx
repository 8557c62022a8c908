import type { ModelResponse } from '@parla/contracts';
import { useId } from 'react';
import { Link } from 'react-router';
import { inputClasses } from '../../../ui/field';
import { ownModelId, ownModels } from '../tts-rules';

export interface ModelSelectProps {
  models: readonly ModelResponse[];
  /** The chosen model: one of Parla's, or a public id, which shows as the Parla model it is an alias of. */
  value: string | undefined;
  onChange: (modelId: string) => void;
  /** Which models are offered: text-to-speech ones unless told; `voice_conversion` for speech to speech. */
  capability?: 'text_to_speech' | 'voice_conversion';
}

/**
 * The speech model, by Parla's names, with what the chosen one is good for in plain words (issue 26 item 7).
 * The public model ids clients send are aliases of these; "About the models" lists them.
 */
export function ModelSelect({ models, value, onChange, capability = 'text_to_speech' }: ModelSelectProps) {
  const id = useId();
  const speaking = ownModels(models).filter((m) =>
    capability === 'voice_conversion' ? m.can_do_voice_conversion : m.can_do_text_to_speech,
  );
  const selectedId = value === undefined ? undefined : ownModelId(models, value);
  const selected = speaking.find((m) => m.model_id === selectedId);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        Model
      </label>
      <select
        id={id}
        className={inputClasses}
        value={selected?.model_id ?? ''}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-note`}
      >
        {speaking.map((m) => (
          <option key={m.model_id} value={m.model_id}>
            {m.name}
          </option>
        ))}
      </select>
      <p id={`${id}-note`} className="text-xs text-fg-muted">
        {selected?.description}
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
