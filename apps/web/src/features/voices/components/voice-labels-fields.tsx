import { useId } from 'react';
import { inputClasses } from '../../../ui/field';
import { ACCENT_OPTIONS, type EditableLabels, GENDER_OPTIONS, LANGUAGE_OPTIONS } from '../voice-labels';

export interface VoiceLabelsFieldsProps {
  value: EditableLabels;
  onChange: (value: EditableLabels) => void;
  disabled?: boolean;
}

/**
 * The labels a person sets on a voice: gender, accent (suggested, free to type) and language. All
 * optional; they help find the voice and pick the language it speaks.
 */
export function VoiceLabelsFields({ value, onChange, disabled = false }: VoiceLabelsFieldsProps) {
  const id = useId();
  const set = (key: keyof EditableLabels) => (next: string) => onChange({ ...value, [key]: next });
  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled}>
      <legend className="mb-2 text-sm font-medium text-fg">
        Labels <span className="font-normal text-fg-muted">(optional)</span>
      </legend>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-gender`} className="text-xs font-medium text-fg-muted">
            Gender
          </label>
          <select
            id={`${id}-gender`}
            className={inputClasses}
            value={value.gender}
            onChange={(event) => set('gender')(event.target.value)}
          >
            <option value="">Not set</option>
            {GENDER_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-accent`} className="text-xs font-medium text-fg-muted">
            Accent
          </label>
          <input
            id={`${id}-accent`}
            className={inputClasses}
            value={value.accent}
            maxLength={50}
            list={`${id}-accents`}
            placeholder="e.g. british"
            onChange={(event) => set('accent')(event.target.value)}
          />
          <datalist id={`${id}-accents`}>
            {ACCENT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value} />
            ))}
          </datalist>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-language`} className="text-xs font-medium text-fg-muted">
            Language
          </label>
          <select
            id={`${id}-language`}
            className={inputClasses}
            value={value.language}
            onChange={(event) => set('language')(event.target.value)}
          >
            <option value="">Not set (English)</option>
            {value.language && !LANGUAGE_OPTIONS.some((option) => option.value === value.language) && (
              <option value={value.language}>{value.language}</option>
            )}
            {LANGUAGE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
    </fieldset>
  );
}
