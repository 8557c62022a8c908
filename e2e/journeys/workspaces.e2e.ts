import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { accessTokenOf, payForPlan, signUpInBrowser } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

const PASSWORD = 'team-pass-1!';

/** The path of the invitation link in the newest invitation mail to an address (the local outbox). */
async function invitationLink(page: Page, to: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/dev/mailbox?to=${encodeURIComponent(to)}`);
        const mails = ((await res.json()) as { emails: { kind: string; text: string }[] }).emails;
        text = mails.find((mail) => mail.kind === 'workspace_invite')?.text ?? '';
        return text;
      },
      { timeout: 10_000 },
    )
    .toContain('invite_code=');
  const link = text.split(/\s+/).find((word) => word.includes('invite_code='));
  return new URL(link ?? '').pathname + new URL(link ?? '').search;
}

describe('workspaces', () => {
  test('an admin invites a second user by email → they accept and appear as a member → a voice shared with them is theirs to use → removing them revokes it', async ({
    page,
    secondPage,
  }) => {
    const stamp = Date.now();
    const adminEmail = `e2e-admin-${stamp}@example.test`;
    const memberEmail = `e2e-member-${stamp}@example.test`;

    // The admin: a Scale plan (seats to invite into) and a cloned voice of their own.
    const adminToken = await signUpInBrowser(page, adminEmail, PASSWORD);
    // Scale: three seats to invite into (accounts §9).
    await payForPlan(page, adminToken, 'growing_business');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-e2e-team-'));
    const sample = path.join(dir, 'team.wav');
    execFileSync('flite', [
      '-voice',
      'slt',
      '-t',
      'This is the voice our whole team will narrate with.',
      '-o',
      sample,
    ]);
    const added = await page.request.post('/v1/voices/add', {
      headers: { authorization: `Bearer ${adminToken}` },
      multipart: {
        name: 'Team narrator',
        files: { name: 'team.wav', mimeType: 'audio/wav', buffer: fs.readFileSync(sample) },
      },
    });
    expect(added.status()).toBe(200);
    const voiceId = ((await added.json()) as { voice_id: string }).voice_id;
    fs.rmSync(dir, { recursive: true, force: true });

    // The second user has an account of their own.
    await signUpInBrowser(secondPage, memberEmail, PASSWORD);

    // The admin invites them from the members page.
    await page.goto('/app/workspace/members');
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await page.getByText('1 of 3 seats used').waitFor();
    await page.getByRole('button', { name: 'Invite member' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill(memberEmail);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${memberEmail}`).first().waitFor();
    await page.getByRole('button', { name: `Withdraw invitation to ${memberEmail}` }).waitFor();

    // The mail's link: they accept, and work in the admin's workspace.
    await secondPage.goto(await invitationLink(page, memberEmail));
    await secondPage.getByText('You have been invited to join a workspace').waitFor();
    await secondPage.getByRole('button', { name: 'Accept invitation' }).click();
    await secondPage
      .getByText(/You joined/)
      .first()
      .waitFor();
    await secondPage.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await secondPage.getByText(adminEmail).first().waitFor();

    // They appear as a member on the admin's page.
    await page.reload();
    await page.getByRole('button', { name: `Remove ${memberEmail}` }).waitFor();
    await page.getByText('2 of 3 seats used').waitFor();

    // Not shared yet: the voice is not theirs to use.
    const memberToken = await accessTokenOf(secondPage);
    const asMember = { authorization: `Bearer ${memberToken}` };
    expect((await secondPage.request.get(`/v1/voices/${voiceId}`, { headers: asMember })).status()).toBe(404);

    // The admin shares it with them from the voice lab.
    await page.goto('/app/voice-lab');
    await page.getByRole('button', { name: 'Share Team narrator with your workspace' }).click();
    const share = page.getByRole('dialog', { name: 'Share Team narrator' });
    await share.getByLabel('Share with').selectOption({ label: memberEmail });
    await share.getByLabel('Access').selectOption({ label: 'Viewer' });
    await share.getByRole('button', { name: 'Share', exact: true }).click();
    await share.getByRole('button', { name: `Stop sharing with ${memberEmail}` }).waitFor();
    await page.keyboard.press('Escape');

    // They speak with it from the text-to-speech page.
    await secondPage.goto('/app/speech-synthesis/text-to-speech');
    await secondPage.getByRole('heading', { level: 1, name: 'Text to speech' }).waitFor();
    await secondPage.getByLabel('Text').fill('Our team narrator, shared with me.');
    await secondPage.getByRole('button', { name: /^Voice/ }).click();
    const picker = secondPage.getByRole('dialog', { name: 'Choose a voice' });
    await picker.getByLabel('Search voices').fill('Team');
    await picker.getByRole('button', { name: 'Use Team narrator' }).click();
    await secondPage.getByRole('button', { name: 'Generate speech' }).click();
    await secondPage.getByRole('region', { name: 'Audio player' }).waitFor({ timeout: 60_000 });

    // The admin removes them: the voice is no longer theirs.
    await page.goto('/app/workspace/members');
    await page.getByRole('button', { name: `Remove ${memberEmail}` }).click();
    await page
      .getByRole('dialog', { name: `Remove ${memberEmail}?` })
      .getByRole('button', { name: 'Remove member' })
      .click();
    await page.getByRole('button', { name: `Remove ${memberEmail}` }).waitFor({ state: 'detached' });
    const spoken = await secondPage.request.post(`/v1/text-to-speech/${voiceId}`, {
      headers: asMember,
      data: { text: 'Still mine?' },
    });
    expect(spoken.status()).toBe(401);
    const fresh = await accessTokenOf(secondPage);
    const after = await secondPage.request.get(`/v1/voices/${voiceId}`, {
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(after.status()).toBe(404);
  });
});
