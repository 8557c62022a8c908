import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

describe('speech to speech', () => {
  test('upload a recording → convert to another voice → the player plays it → it is in the history', async ({
    page,
  }) => {
    // A real recording of speech: Debian's flite, as a WAV file on disk.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-e2e-sts-'));
    const recording = path.join(dir, 'my-recording.wav');
    execFileSync('flite', [
      '-voice',
      'kal',
      '-t',
      'This is my own voice, read aloud for the voice changer.',
      '-o',
      recording,
    ]);

    const email = `e2e-sts-${Date.now()}@example.test`;
    expect(
      (await page.request.post('/v1/auth/sign-up', { data: { email, password: 'sts-pass-1!' } })).status(),
    ).toBe(201);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('xi:has-session', '1'));
    await page.goto('/app/speech-synthesis/speech-to-speech');
    await page.getByRole('heading', { level: 1, name: 'Speech to speech' }).waitFor();

    await page.getByLabel('Audio file').setInputFiles(recording);
    await page.getByText('my-recording.wav').first().waitFor();
    await page.getByRole('button', { name: 'Convert', exact: true }).click();

    // The converted audio plays in the bottom player.
    await page.getByRole('region', { name: 'Audio player' }).waitFor({ timeout: 60_000 });
    await expect
      .poll(
        () =>
          page.evaluate(
            () => document.querySelector<HTMLAudioElement>('audio:not([controls])')?.currentTime ?? 0,
          ),
        {
          timeout: 30_000,
        },
      )
      .toBeGreaterThan(0.3);

    // Kept as a speech-to-speech item: listed on the page and on the speech-to-speech history page.
    const recent = page.getByRole('region', { name: 'Recent conversions' });
    await recent.getByRole('button', { name: /^Play/ }).first().waitFor({ timeout: 30_000 });
    await page.goto('/app/speech-synthesis/speech-to-speech/history');
    await page.getByRole('heading', { level: 1, name: 'Speech to speech history' }).waitFor();
    await page.getByRole('main').getByText('Today').first().waitFor({ timeout: 10_000 });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
