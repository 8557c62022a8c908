import {
  brokenPasswordRules,
  describeBrokenPasswordRules,
  EmailAddress,
  SUBSCRIPTION_TIERS,
  type SubscriptionTier,
} from '@parla/contracts';
import { createApiKey } from '../modules/api-keys';
import { type AccountActionDeps, createAccountWithPassword, requestSupportAccess } from '../modules/auth';
import { createPromoCode } from '../modules/billing';
import { getUserByEmail } from '../modules/users';
import { setSessionInactivityTimeout, setWorkspaceTier } from '../modules/workspaces';
import { AppError } from '../platform/errors';
import { type ModelsCommand, modelsUsage, parseModelsArgs } from './admin-models';

/** The admin command line for self-hosters (issue 3 item 10). */
export type AdminCommand =
  | {
      name: 'create-user';
      email: string;
      password: string;
      tier: SubscriptionTier;
      apiKey: boolean;
      firstName?: string;
    }
  | { name: 'set-tier'; email: string; tier: SubscriptionTier }
  | { name: 'request-support-access'; email: string }
  | { name: 'set-inactivity-timeout'; email: string; seconds: number | null }
  | {
      name: 'create-promocode';
      code: string;
      amountOff: number | null;
      percentOff: number | null;
      months: number;
      expiresAt: Date | null;
    }
  | ModelsCommand
  | { name: 'help' };

export const adminUsage = `Usage: npm run admin -- <command> [options]

Commands:
  create-user --email E --password P [--tier T] [--first-name N] [--api-key]
      Creates a verified user with their own workspace; --api-key prints a new API key.
      --password - reads the password from standard input (kept out of the process list).
  set-tier --email E --tier T
      Puts the user's workspace on a plan tier.
  request-support-access --email E
      Mails the user a request to grant the support team temporary access.
  set-inactivity-timeout --email E --seconds N
      Signs the members of the user's workspace out of the web app after N seconds without
      activity; 0 turns it off.
  create-promocode --code C (--amount-off CENTS | --percent-off P) [--months N] [--expires YYYY-MM-DD]
      Makes (or changes) a promo code for checkout; the amount is in cents (2200 is a month of
      Creator, accounts §4), the discount lasts N monthly invoices (default 1).
${modelsUsage}

Tiers: ${SUBSCRIPTION_TIERS.join(', ')}
With the embedded database (no DATABASE_URL), stop the server first: one process owns DATA_DIR
(the models commands need no database: they run beside a running server).`;

export class AdminUsageError extends Error {}

/** Parses `argv` (after the script name) into a command, or throws AdminUsageError with what is wrong. */
export function parseAdminArgs(argv: readonly string[]): AdminCommand {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (name === 'models')
    return parseModelsArgs(rest, (message) => {
      throw new AdminUsageError(message);
    });
  const options = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] ?? '';
    if (!arg.startsWith('--')) throw new AdminUsageError(`unexpected argument "${arg}"`);
    const [key, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline !== undefined) options.set(key, inline);
    else if (key === 'api-key') options.set(key, true);
    else {
      const value = rest[i + 1];
      if (value === undefined || value.startsWith('--')) throw new AdminUsageError(`--${key} needs a value`);
      options.set(key, value);
      i += 1;
    }
  }
  const text = (key: string, required = true): string | undefined => {
    const value = options.get(key);
    if (value === undefined && required) throw new AdminUsageError(`--${key} is required`);
    return typeof value === 'string' ? value : undefined;
  };
  const email = () => {
    const parsed = EmailAddress.safeParse(text('email'));
    if (!parsed.success) throw new AdminUsageError('--email is not a valid email address');
    return parsed.data.toLowerCase();
  };
  const tier = (fallback?: SubscriptionTier): SubscriptionTier => {
    const value = text('tier', fallback === undefined) ?? fallback;
    if (!SUBSCRIPTION_TIERS.includes(value as SubscriptionTier)) {
      throw new AdminUsageError(`--tier must be one of ${SUBSCRIPTION_TIERS.join(', ')}`);
    }
    return value as SubscriptionTier;
  };
  const known = (...keys: string[]) => {
    for (const key of options.keys()) {
      if (!keys.includes(key)) throw new AdminUsageError(`unknown option --${key} for ${name}`);
    }
  };

  switch (name) {
    case 'create-user': {
      known('email', 'password', 'tier', 'api-key', 'first-name');
      const password = text('password') ?? '';
      const broken = brokenPasswordRules(password);
      if (broken.length > 0) throw new AdminUsageError(describeBrokenPasswordRules(broken));
      const firstName = text('first-name', false);
      return {
        name,
        email: email(),
        password,
        tier: tier('free'),
        apiKey: options.get('api-key') === true,
        ...(firstName ? { firstName } : {}),
      };
    }
    case 'set-tier':
      known('email', 'tier');
      return { name, email: email(), tier: tier() };
    case 'request-support-access':
      known('email');
      return { name, email: email() };
    case 'set-inactivity-timeout': {
      known('email', 'seconds');
      const seconds = Number(text('seconds'));
      if (!Number.isInteger(seconds) || seconds < 0 || seconds > 30 * 24 * 3600) {
        throw new AdminUsageError('--seconds must be a whole number from 0 (off) to 2592000 (30 days)');
      }
      return { name, email: email(), seconds: seconds === 0 ? null : seconds };
    }
    case 'create-promocode': {
      known('code', 'amount-off', 'percent-off', 'months', 'expires');
      const code = text('code') ?? '';
      if (!/^[A-Za-z0-9_-]{2,64}$/.test(code))
        throw new AdminUsageError('--code takes 2–64 letters, digits, - or _');
      const amount = text('amount-off', false);
      const percent = text('percent-off', false);
      if ((amount === undefined) === (percent === undefined)) {
        throw new AdminUsageError('give exactly one of --amount-off (cents) or --percent-off');
      }
      const amountOff = amount === undefined ? null : Number(amount);
      const percentOff = percent === undefined ? null : Number(percent);
      if (amountOff !== null && (!Number.isInteger(amountOff) || amountOff <= 0)) {
        throw new AdminUsageError('--amount-off must be a whole number of cents above 0');
      }
      if (percentOff !== null && !(percentOff > 0 && percentOff <= 100)) {
        throw new AdminUsageError('--percent-off must be above 0 and at most 100');
      }
      const months = Number(text('months', false) ?? '1');
      if (!Number.isInteger(months) || months < 1 || months > 36)
        throw new AdminUsageError('--months must be 1 to 36');
      const expires = text('expires', false);
      const expiresAt = expires === undefined ? null : new Date(`${expires}T00:00:00Z`);
      if (expiresAt && Number.isNaN(expiresAt.getTime()))
        throw new AdminUsageError('--expires must be a date, YYYY-MM-DD');
      return { name, code, amountOff, percentOff, months, expiresAt };
    }
    default:
      throw new AdminUsageError(`unknown command "${name}"`);
  }
}

/** Runs a command; answers the lines to print. */
export async function runAdminCommand(
  deps: AccountActionDeps,
  command: Exclude<AdminCommand, ModelsCommand>,
): Promise<string[]> {
  switch (command.name) {
    case 'help':
      return [adminUsage];
    case 'create-user': {
      const { user, workspaceId } = await createAccountWithPassword(deps.db, {
        email: command.email,
        password: command.password,
        firstName: command.firstName ?? null,
        tier: command.tier,
        now: deps.clock.now(),
      }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'email_taken')
          throw new AdminUsageError(`an account with the email ${command.email} already exists`);
        throw error;
      });
      const lines = [
        `Created ${user.email} (user ${user.id}) with workspace ${workspaceId} on tier ${command.tier}.`,
      ];
      if (command.apiKey) {
        const { key } = await createApiKey(deps.db, {
          userId: user.id,
          workspaceId,
          name: 'admin',
        });
        lines.push(`API key (shown once, keep it safe): ${key}`);
      }
      return lines;
    }
    case 'set-tier': {
      const user = await getUserByEmail(deps.db, command.email);
      if (!user?.workspaceId) throw new AdminUsageError(`no account has the email ${command.email}`);
      await setWorkspaceTier(deps.db, user.workspaceId, command.tier);
      return [`${user.email}: workspace ${user.workspaceId} is now on tier ${command.tier}.`];
    }
    case 'set-inactivity-timeout': {
      const user = await getUserByEmail(deps.db, command.email);
      if (!user?.workspaceId) throw new AdminUsageError(`no account has the email ${command.email}`);
      await setSessionInactivityTimeout(deps.db, user.workspaceId, command.seconds);
      return [
        command.seconds === null
          ? `Workspace ${user.workspaceId}: no inactivity sign-out.`
          : `Workspace ${user.workspaceId}: signed out after ${command.seconds} s without activity.`,
      ];
    }
    case 'request-support-access':
      await requestSupportAccess(deps, command.email);
      return [`Mailed ${command.email} a request to grant support access.`];
    case 'create-promocode': {
      await createPromoCode(deps.db, {
        code: command.code,
        amountOff: command.amountOff,
        percentOff: command.percentOff,
        durationInMonths: command.months,
        expiresAt: command.expiresAt,
      });
      const off = command.amountOff !== null ? `${command.amountOff} cents` : `${command.percentOff}%`;
      return [
        `Promo code ${command.code}: ${off} off for ${command.months} month(s)${command.expiresAt ? `, until ${command.expiresAt.toISOString().slice(0, 10)}` : ''}.`,
      ];
    }
  }
}
