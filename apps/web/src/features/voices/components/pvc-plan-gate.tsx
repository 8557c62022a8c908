import { Link } from 'react-router';
import { getButtonClasses } from '../../../ui/button';
import type { PvcPlanCheck } from '../pvc-rules';

/**
 * What a user whose plan cannot make another professional clone sees instead of the form: why, and the
 * way to the plans (accounts §9: professional cloning from Creator).
 */
export function PvcPlanGate({ check }: { check: Extract<PvcPlanCheck, { allowed: false }> }) {
  return (
    <section
      aria-labelledby="pvc-plan-gate"
      className="flex flex-col gap-3 rounded-xl border border-line bg-subtle/60 p-5"
    >
      <h2 id="pvc-plan-gate" className="text-base font-semibold">
        {check.reason === 'not_in_plan'
          ? 'Your plan does not include professional voice cloning'
          : 'No professional voice slot left'}
      </h2>
      <p className="text-sm text-fg-muted">
        {check.message}{' '}
        {check.reason === 'not_in_plan' &&
          'Until then, an instant clone makes a voice from a few recordings, or design one from a description.'}
      </p>
      <div className="flex flex-wrap gap-2">
        <Link to="/app/subscription" className={getButtonClasses('primary', 'md')}>
          Upgrade your plan
        </Link>
        <Link to="/app/voice-lab" className={getButtonClasses('secondary', 'md')}>
          Back to the voice lab
        </Link>
      </div>
    </section>
  );
}
