import { VOICE_NAME_MAX } from '@parla/contracts';
import { TextField } from '../../../ui/field';

export interface VoiceNameFieldProps {
  id: string;
  label?: string;
  value: string;
  /** The name's problem, shown under it; cleared by the caller as the name changes. */
  error: string | undefined;
  disabled: boolean;
  placeholder?: string;
  onChange: (value: string) => void;
}

/** A required name of at most the contract's length (a voice's or a collection's). */
export function VoiceNameField({
  id,
  label = 'Name',
  value,
  error,
  disabled,
  placeholder,
  onChange,
}: VoiceNameFieldProps) {
  return (
    <TextField
      id={id}
      label={label}
      value={value}
      maxLength={VOICE_NAME_MAX}
      autoComplete="off"
      placeholder={placeholder}
      required
      error={error}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
