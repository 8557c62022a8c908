import { brokenPasswordRules, passwordMessages } from '@parla/contracts';
import { useId, useState } from 'react';
import { TextField } from '../../../ui/field';
import { PasswordRules } from './password-rules';

export interface NewPasswordValue {
  password: string;
  repeat: string;
}

/**
 * The error of a new password and its repetition (accounts §5), or undefined when both are fine. The
 * password's error is the spec's lead sentence only: which rules are unmet, the rule list under the
 * field shows (once, ticked off live), so the sentences are not printed twice.
 */
export function newPasswordErrors(value: NewPasswordValue): { password?: string; repeat?: string } {
  const broken = brokenPasswordRules(value.password);
  return {
    ...(broken.length > 0 ? { password: passwordMessages.prefix } : {}),
    ...(value.repeat !== value.password ? { repeat: passwordMessages.mismatch } : {}),
  };
}

/**
 * The two password fields with the live rule list. A field's error shows once it was left (blur) or the
 * form was submitted; the password field is described by its error and by the rule list.
 */
export function NewPasswordFields({
  value,
  onChange,
  showErrors,
  labels = { password: 'Password', repeat: 'Repeat password' },
}: {
  value: NewPasswordValue;
  onChange: (value: NewPasswordValue) => void;
  /** Show every error (the form was submitted). */
  showErrors: boolean;
  labels?: { password: string; repeat: string };
}) {
  const rulesId = useId();
  const [left, setLeft] = useState({ password: false, repeat: false });
  const errors = newPasswordErrors(value);
  const showPassword = showErrors || left.password;
  const showRepeat = showErrors || left.repeat;
  return (
    <>
      <TextField
        label={labels.password}
        type="password"
        name="new-password"
        autoComplete="new-password"
        required
        value={value.password}
        error={showPassword ? errors.password : undefined}
        aria-describedby={rulesId}
        onBlur={() => setLeft((current) => ({ ...current, password: true }))}
        onChange={(event) => onChange({ ...value, password: event.target.value })}
      />
      <PasswordRules id={rulesId} password={value.password} />
      <TextField
        label={labels.repeat}
        type="password"
        name="repeat-password"
        autoComplete="new-password"
        required
        value={value.repeat}
        error={showRepeat ? errors.repeat : undefined}
        onBlur={() => setLeft((current) => ({ ...current, repeat: true }))}
        onChange={(event) => onChange({ ...value, repeat: event.target.value })}
      />
    </>
  );
}
