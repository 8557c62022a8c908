import { brokenPasswordRules, describeBrokenPasswordRules, passwordMessages } from '@parla/contracts';
import { TextField } from '../../../ui/field';
import { PasswordRules } from './password-rules';

export interface NewPasswordValue {
  password: string;
  repeat: string;
}

/** The error of a new password and its repetition (accounts §5), or undefined when both are fine. */
export function newPasswordErrors(value: NewPasswordValue): { password?: string; repeat?: string } {
  const broken = brokenPasswordRules(value.password);
  return {
    ...(broken.length > 0 ? { password: describeBrokenPasswordRules(broken) } : {}),
    ...(value.repeat !== value.password ? { repeat: passwordMessages.mismatch } : {}),
  };
}

/** The two password fields with the live rule list; errors show once the form was submitted. */
export function NewPasswordFields({
  value,
  onChange,
  showErrors,
  labels = { password: 'Password', repeat: 'Repeat password' },
}: {
  value: NewPasswordValue;
  onChange: (value: NewPasswordValue) => void;
  showErrors: boolean;
  labels?: { password: string; repeat: string };
}) {
  const errors = showErrors ? newPasswordErrors(value) : {};
  return (
    <>
      <TextField
        label={labels.password}
        type="password"
        name="new-password"
        autoComplete="new-password"
        required
        value={value.password}
        error={errors.password}
        onChange={(event) => onChange({ ...value, password: event.target.value })}
      />
      <PasswordRules password={value.password} />
      <TextField
        label={labels.repeat}
        type="password"
        name="repeat-password"
        autoComplete="new-password"
        required
        value={value.repeat}
        error={
          errors.repeat ??
          (value.repeat !== '' && value.repeat !== value.password ? passwordMessages.mismatch : undefined)
        }
        onChange={(event) => onChange({ ...value, repeat: event.target.value })}
      />
    </>
  );
}
