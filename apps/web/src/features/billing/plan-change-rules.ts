import type { PlanAction, PricePeriod } from '@parla/contracts';
import type { ChangeType } from './billing-messages';

/** The change a confirm dialog carries out (accounts §4: cancel, downgrade and upgrade open a dialog). */
export function changeTypeOf(action: PlanAction): ChangeType | null {
  if (action === 'upgrade') return 'upgrade';
  if (action === 'downgrade') return 'downgrade';
  if (action === 'cancelSubscription') return 'cancel';
  return null;
}

export interface ChangeDialogInput {
  type: ChangeType;
  /** Display name of the plan the workspace is on. */
  currentName: string;
  /** Display name of the chosen plan (the current one for a cancellation). */
  targetName: string;
  targetPeriod: PricePeriod;
  /** When the current period ends, formatted; null when unknown. */
  periodEnd: string | null;
}

export interface ChangeDialogCopy {
  title: string;
  description: string;
  confirm: string;
  /** The button that closes the dialog without a change. */
  dismiss: string;
}

/**
 * What the confirm dialog says (accounts §4): an upgrade starts now and the difference for the rest of
 * the period is charged now, prorated; a downgrade and a cancellation take effect at the period end.
 */
export function changeDialogCopy(input: ChangeDialogInput): ChangeDialogCopy {
  const until = input.periodEnd
    ? `the end of the billing period (${input.periodEnd})`
    : 'the end of the billing period';
  const period = input.targetPeriod === 'yearly' ? 'billed yearly' : 'billed monthly';
  switch (input.type) {
    case 'upgrade':
      return {
        title: `Upgrade to ${input.targetName}?`,
        description: `You move to ${input.targetName} (${period}) right away, with its credits. The difference for the rest of this billing period is charged to your card now, prorated.`,
        confirm: 'Upgrade',
        dismiss: 'Not now',
      };
    case 'downgrade':
      return {
        title: `Downgrade to ${input.targetName}?`,
        description: `You keep ${input.currentName} and its credits until ${until}. Then the workspace moves to ${input.targetName} (${period}). Nothing is charged now.`,
        confirm: 'Downgrade',
        dismiss: `Keep ${input.currentName}`,
      };
    case 'cancel':
      return {
        title: 'Cancel your subscription?',
        description: `${input.currentName} stays active until ${until}; then the workspace moves to the Free plan. Until then you can undo this with "Do Not Cancel".`,
        confirm: 'Cancel Subscription',
        dismiss: 'Keep subscription',
      };
  }
}
