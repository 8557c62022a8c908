// @postgres-leg skip: it migrates a database of its own (PGlite) from before migration 0025 to after it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * Migration 0025 (issue 26 item 3) moves each module's columns out of `users` and `workspaces` into the
 * module's own tables. An installation that already has users must keep every value: this migrates a
 * database to 0024, writes users and workspaces the old way, migrates on, and reads the values back.
 */

const drizzleDir = path.join(import.meta.dirname, '../../../drizzle');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-migration-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The migrations folder as it stood up to and including migration `last`. */
function migrationsUpTo(last: number): string {
  const dir = path.join(tmp, `upto-${last}`);
  fs.cpSync(drizzleDir, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= last);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

describe('migration 0025: the modules own their columns', () => {
  it('keeps every user and workspace value in the owning module tables', async () => {
    const client = new PGlite();
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: migrationsUpTo(24) });
    await client.exec(`
      insert into users (id, email, ccpa_opt_out, geo_location, is_onboarding_completed,
        is_onboarding_checklist_completed, referral_link_code, accepted_bipa_terms, bipa_terms_accepted_at,
        terms_agreed_to, onboarding_survey, onboarding_checklist, analytics_consent, referred_by_code,
        signup_source, totp_secret, totp_enabled_at, totp_last_step, backup_code_hash)
      values
        ('u1', 'one@example.com', true, '{"country":"us","region":"ca"}', false, false, 'code1', true,
          '2026-01-02T03:04:05Z', '{"voice_design": 1700000000}', '{"first_name":"Ana","role":"dev",
          "subrole":null,"timezone":"UTC","source":null}', '{"checklist_id":"c1","items":[],"hidden":false}',
          'denied', 'code2', '{"pid":"p"}', 'SECRET', '2026-01-03T00:00:00Z', 42, 'hash'),
        ('u2', 'two@example.com', false, null, true, true, 'code2', false, null, '{}', null, null, null,
          null, null, null, null, null, null);
      insert into workspaces (id, name, owner_id, tier, character_count, voice_add_edit_count,
        next_character_count_reset_at, training_opt_out, training_opt_out_at)
      values ('w1', 'One', 'u1', 'creator', 1234, 7, '2026-02-01T00:00:00Z', true, '2026-01-05T00:00:00Z'),
        ('w2', 'Two', 'u2', 'free', 0, 0, '2026-03-01T00:00:00Z', false, null);
    `);
    await migrate(db, { migrationsFolder: drizzleDir });

    const rows = async (sql: string) => (await client.query(sql)).rows;
    expect(await rows('select * from auth_second_factors')).toEqual([
      {
        user_id: 'u1',
        totp_secret: 'SECRET',
        totp_enabled_at: new Date('2026-01-03T00:00:00Z'),
        totp_last_step: 42,
        backup_code_hash: 'hash',
      },
    ]);
    expect(await rows('select * from user_consents order by user_id')).toEqual([
      {
        user_id: 'u1',
        ccpa_opt_out: true,
        geo_location: { country: 'us', region: 'ca' },
        analytics_consent: 'denied',
        accepted_bipa_terms: true,
        bipa_terms_accepted_at: new Date('2026-01-02T03:04:05Z'),
        terms_agreed_to: { voice_design: 1700000000 },
      },
      {
        user_id: 'u2',
        ccpa_opt_out: false,
        geo_location: null,
        analytics_consent: null,
        accepted_bipa_terms: false,
        bipa_terms_accepted_at: null,
        terms_agreed_to: {},
      },
    ]);
    expect(await rows('select * from user_onboarding order by user_id')).toEqual([
      {
        user_id: 'u1',
        is_onboarding_completed: false,
        is_onboarding_checklist_completed: false,
        onboarding_survey: { first_name: 'Ana', role: 'dev', subrole: null, timezone: 'UTC', source: null },
        onboarding_checklist: { checklist_id: 'c1', items: [], hidden: false },
      },
      {
        user_id: 'u2',
        is_onboarding_completed: true,
        is_onboarding_checklist_completed: true,
        onboarding_survey: null,
        onboarding_checklist: null,
      },
    ]);
    expect(await rows('select * from user_referrals order by user_id')).toEqual([
      { user_id: 'u1', referral_link_code: 'code1', referred_by_code: 'code2', signup_source: { pid: 'p' } },
      { user_id: 'u2', referral_link_code: 'code2', referred_by_code: null, signup_source: null },
    ]);
    expect(await rows('select * from credit_balances')).toEqual([{ workspace_id: 'w1', used: 1234 }]);
    expect(await rows('select * from voice_add_edit_counts')).toEqual([{ workspace_id: 'w1', count: 7 }]);
    expect(await rows('select * from billing_credit_periods order by workspace_id')).toEqual([
      { workspace_id: 'w1', next_reset_at: new Date('2026-02-01T00:00:00Z') },
      { workspace_id: 'w2', next_reset_at: new Date('2026-03-01T00:00:00Z') },
    ]);
    expect(await rows('select * from workspace_consents')).toEqual([
      { workspace_id: 'w1', training_opt_out: true, training_opt_out_at: new Date('2026-01-05T00:00:00Z') },
    ]);
    // The columns are gone from the identity tables.
    const columns = await rows(
      "select column_name from information_schema.columns where table_name in ('users', 'workspaces')",
    );
    const names = columns.map((c) => (c as { column_name: string }).column_name);
    for (const gone of [
      'totp_secret',
      'ccpa_opt_out',
      'referral_link_code',
      'character_count',
      'training_opt_out',
    ])
      expect(names).not.toContain(gone);
    await client.close();
  }, 120_000);
});
