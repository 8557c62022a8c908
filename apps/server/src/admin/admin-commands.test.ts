import { passwordMessages } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { AdminUsageError, parseAdminArgs } from './admin-commands';

describe('parseAdminArgs', () => {
  it('reads create-user with its options, in either --key value or --key=value form', () => {
    expect(
      parseAdminArgs([
        'create-user',
        '--email',
        'Ada@Example.test',
        '--password=s3cret-pass',
        '--tier',
        'pro',
        '--api-key',
      ]),
    ).toEqual({
      name: 'create-user',
      email: 'ada@example.test',
      password: 's3cret-pass',
      tier: 'pro',
      apiKey: true,
    });
    expect(parseAdminArgs(['create-user', '--email', 'a@b.test', '--password', 's3cret-pass'])).toMatchObject(
      {
        tier: 'free',
        apiKey: false,
      },
    );
  });

  it('reads set-tier and request-support-access, and help by default', () => {
    expect(parseAdminArgs(['set-tier', '--email', 'a@b.test', '--tier', 'growing_business'])).toEqual({
      name: 'set-tier',
      email: 'a@b.test',
      tier: 'growing_business',
    });
    expect(parseAdminArgs(['request-support-access', '--email', 'a@b.test'])).toEqual({
      name: 'request-support-access',
      email: 'a@b.test',
    });
    expect(parseAdminArgs(['set-inactivity-timeout', '--email', 'a@b.test', '--seconds', '900'])).toEqual({
      name: 'set-inactivity-timeout',
      email: 'a@b.test',
      seconds: 900,
    });
    expect(parseAdminArgs(['set-inactivity-timeout', '--email', 'a@b.test', '--seconds=0'])).toMatchObject({
      seconds: null,
    });
    expect(parseAdminArgs([])).toEqual({ name: 'help' });
    expect(parseAdminArgs(['create-promocode', '--code', 'CREATOR-FREE', '--amount-off', '2200'])).toEqual({
      name: 'create-promocode',
      code: 'CREATOR-FREE',
      amountOff: 2200,
      percentOff: null,
      months: 1,
      expiresAt: null,
    });
    expect(
      parseAdminArgs([
        'create-promocode',
        '--code',
        'HALF',
        '--percent-off',
        '50',
        '--months',
        '3',
        '--expires',
        '2027-01-31',
      ]),
    ).toMatchObject({ percentOff: 50, months: 3, expiresAt: new Date('2027-01-31T00:00:00Z') });
  });

  it.each([
    [['nope'], 'unknown command "nope"'],
    [['create-promocode', '--code', 'X1'], 'give exactly one of --amount-off (cents) or --percent-off'],
    [
      ['create-promocode', '--code', 'X1', '--percent-off', '150'],
      '--percent-off must be above 0 and at most 100',
    ],
    [
      ['create-promocode', '--code', 'X1', '--amount-off', '1.5'],
      '--amount-off must be a whole number of cents above 0',
    ],
    [['create-user', '--password', 's3cret-pass'], '--email is required'],
    [
      ['create-user', '--email', 'not-an-email', '--password', 's3cret-pass'],
      '--email is not a valid email address',
    ],
    [
      ['create-user', '--email', 'a@b.test', '--password', 's3cret-pass', '--tier', 'gold'],
      '--tier must be one of',
    ],
    [['set-tier', '--email', 'a@b.test'], '--tier is required'],
    [
      ['set-tier', '--email', 'a@b.test', '--tier', 'pro', '--api-key'],
      'unknown option --api-key for set-tier',
    ],
    [['set-tier', '--email'], '--email needs a value'],
    [['set-tier', 'stray'], 'unexpected argument "stray"'],
    [
      ['set-inactivity-timeout', '--email', 'a@b.test', '--seconds', '1.5'],
      '--seconds must be a whole number',
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parseAdminArgs(argv)).toThrow(AdminUsageError);
    expect(() => parseAdminArgs(argv)).toThrow(message);
  });

  it('applies the password rules of accounts §5', () => {
    expect(() => parseAdminArgs(['create-user', '--email', 'a@b.test', '--password', 'short'])).toThrow(
      passwordMessages.prefix,
    );
  });
});
