import { brokenPasswordRules, type PasswordRule, passwordMessages } from '@parla/contracts';
import { clsx } from 'clsx';

const ruleOrder: PasswordRule[] = ['length', 'letter', 'number', 'special'];

/**
 * The password rules of accounts §5, each ticked off live as the password is typed; the sentences are
 * the spec's own, so the list and the server's refusal read the same.
 */
export function PasswordRules({ password, id }: { password: string; id?: string }) {
  const broken = new Set(brokenPasswordRules(password));
  return (
    <ul id={id} className="flex flex-col gap-1 text-sm" aria-label="Password requirements">
      {ruleOrder.map((rule) => {
        const met = password !== '' && !broken.has(rule);
        return (
          <li key={rule} className={clsx('flex items-start gap-2', met ? 'text-success' : 'text-fg-muted')}>
            <span
              aria-hidden="true"
              className="mt-0.5 inline-flex size-4 shrink-0 items-center justify-center"
            >
              {met ? '✓' : '•'}
            </span>
            <span>
              {passwordMessages[rule]}
              <span className="sr-only">{met ? ' (met)' : ' (not met yet)'}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
