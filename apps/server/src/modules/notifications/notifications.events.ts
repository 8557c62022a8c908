import type { Db } from '../../platform/db/client';
import {
  creditsRunningLow,
  subscriptionPaymentFailed,
  webhookAutoDisabled,
  workspaceInvitationsSent,
} from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { notifyUser } from './notifications.service';
import { verifiedUsersByEmail } from './notifications.store';

/**
 * The messages under the bell that other modules' events call for (issue 17: a side effect in this module
 * is an event, not a call into it): a workspace invitation, credits past 90% of the period's, a renewal
 * that could not be charged (accounts §4), and a webhook switched off after failed deliveries. Light handlers: a message that fails to be written is logged, never fails the
 * spend or the renewal.
 */
export function subscribeNotifications(bus: EventBus, deps: { db: Db }): void {
  bus.on(workspaceInvitationsSent, 'notifications.invitations-sent', async (event) => {
    // The mail is the invitation; the message is a convenience for those who already have an account.
    for (const userId of await verifiedUsersByEmail(deps.db, event.emails)) {
      await notifyUser(deps.db, userId, {
        severity: 'info',
        title: `${event.inviter} invited you to ${event.workspaceName}`,
        description: 'Accept to join the workspace and work with its members.',
        needsAttention: true,
        link: '/app/settings/workspace-invites',
      });
    }
  });
  bus.on(creditsRunningLow, 'notifications.credits-running-low', async (event) => {
    const left = Math.max(0, event.limit - event.used);
    await notifyUser(deps.db, event.ownerId, {
      severity: 'warning',
      title: 'Your credits are running low',
      description: `${left.toLocaleString('en-US')} of ${event.limit.toLocaleString('en-US')} credits are left this period. Upgrade your plan for more, or wait for the monthly reset.`,
      link: '/app/subscription',
    });
  });
  bus.on(webhookAutoDisabled, 'notifications.webhook-auto-disabled', async (event) => {
    for (const userId of event.adminIds) {
      await notifyUser(deps.db, userId, {
        severity: 'error',
        title: `Webhook “${event.name}” was turned off`,
        description: `Its last ${event.failures} deliveries failed. Check the address and the delivery log, then enable it again.`,
        needsAttention: true,
        link: '/app/developers/webhooks',
      });
    }
  });
  bus.on(subscriptionPaymentFailed, 'notifications.payment-failed', async (event) => {
    await notifyUser(deps.db, event.ownerId, {
      severity: 'error',
      title: 'Your subscription payment failed',
      description:
        'The renewal could not be charged. Pay the open invoice or update your payment method on the subscription page to keep generating.',
      needsAttention: true,
      link: '/app/subscription',
    });
  });
}
