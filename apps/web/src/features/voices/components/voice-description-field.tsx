import { VOICE_DESCRIPTION_MAX } from '@parla/contracts';
import { textareaClasses } from '../../../ui/field';

export interface VoiceDescriptionFieldProps {
  /** The textarea's id; its character count is `${id}-note`. */
  id: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  placeholder?: string;
  invalid?: boolean;
}

/** A voice's optional description, with its length against the contract's limit. */
export function VoiceDescriptionField({
  id,
  value,
  onChange,
  disabled,
  placeholder,
  invalid,
}: VoiceDescriptionFieldProps) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        Description <span className="font-normal text-fg-muted">(optional)</span>
      </label>
      <textarea
        id={id}
        rows={2}
        value={value}
        maxLength={VOICE_DESCRIPTION_MAX}
        placeholder={placeholder}
        aria-describedby={`${id}-note`}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        className={textareaClasses}
      />
      <p id={`${id}-note`} className="text-right text-xs text-fg-muted tabular-nums">
        {value.length} / {VOICE_DESCRIPTION_MAX}
      </p>
    </div>
  );
}
