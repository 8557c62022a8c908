import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { payForPlan, signUpInBrowser } from '../support/accounts';
import { audioLevel, playingAudio } from '../support/audio';
import { closeBrowser, test } from '../support/browser';

afterAll(closeBrowser);

describe('voices', () => {
  test('clone a voice from an uploaded file → generate speech with it → find it in the voice lab → delete it', async ({
    page,
  }) => {
    // A real recording of a voice: Debian's flite, as a WAV file on disk.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-e2e-voices-'));
    const sample = path.join(dir, 'my-voice.wav');
    execFileSync('flite', [
      '-voice',
      'awb',
      '-t',
      'This is a sample of my voice. I read it aloud so that Parla can learn how I sound, and speak new text the way I would.',
      '-o',
      sample,
    ]);

    const email = `e2e-voices-${Date.now()}@example.test`;
    const token = await signUpInBrowser(page, email, 'voices-pass-1!');
    // Instant cloning needs Starter.
    await payForPlan(page, token, 'starter');
    const headers = { authorization: `Bearer ${token}` };

    // The voice lab's clone form: the file, a name, the consent.
    // (The dialog opens at once; the page behind it is hidden from the accessibility tree.)
    await page.goto('/app/voice-lab?creationType=cloneVoice');
    const form = page.getByRole('form', { name: 'Instant voice clone' });
    await form.getByLabel('Audio samples', { exact: true }).setInputFiles(sample);
    await form.getByText('my-voice.wav').first().waitFor();
    await form.getByLabel('Name').fill('My e2e voice');
    await form.getByRole('checkbox', { name: /I have the rights/ }).check();
    await form.getByRole('button', { name: 'Clone voice' }).click();
    await page.getByText('Voice created').first().waitFor({ timeout: 60_000 });

    // It is listed in the voice lab.
    const mine = page.getByRole('list', { name: 'My voices' });
    await mine.getByText('My e2e voice').waitFor();

    // Speech in the new voice, picked from the text-to-speech page's voice picker.
    await page.goto('/app/speech-synthesis/text-to-speech');
    await page.getByRole('heading', { level: 1, name: 'Text to speech' }).waitFor();
    const text = 'Hello from my own cloned voice, speaking a sentence I never recorded.';
    await page.getByLabel('Text').fill(text);
    await page.getByRole('button', { name: /^Voice/ }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a voice' });
    await picker.getByLabel('Search voices').fill('My e2e');
    await picker.getByRole('button', { name: 'Use My e2e voice' }).click();
    await page.getByRole('button', { name: 'Generate speech' }).click();
    await page.getByRole('region', { name: 'Audio player' }).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0), { timeout: 30_000 })
      .toBeGreaterThan(0.3);
    const recent = page.getByRole('region', { name: 'Recent generations' });
    await recent.getByText(text).waitFor({ timeout: 30_000 });

    // Back in the voice lab: delete it, after the confirmation.
    await page.goto('/app/voice-lab');
    await page.getByRole('heading', { level: 1, name: 'Voice lab' }).waitFor();
    await page.getByRole('button', { name: 'Delete My e2e voice' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete My e2e voice?' });
    await confirm.getByRole('button', { name: 'Delete voice' }).click();
    await page
      .getByRole('list', { name: 'My voices' })
      .getByText('My e2e voice')
      .waitFor({ state: 'detached' });
    const voices = await page.request.get('/v2/voices?voice_type=personal', { headers });
    expect(((await voices.json()) as { voices: unknown[] }).voices).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a new account finds built-in voices in the library → adds one → the checklist step completes', async ({
    page,
  }) => {
    const email = `e2e-library-${Date.now()}@example.test`;
    const token = await signUpInBrowser(page, email, 'library-pass-1!');
    const headers = { authorization: `Bearer ${token}` };
    await page.request.post('/v1/user/onboarding-checklist/initiate', { headers });

    // A fresh install's library is not empty: the built-in voices, marked as such.
    await page.goto('/app/voice-library');
    const cards = page.getByRole('list', { name: 'Shared voices' });
    await cards.waitFor({ timeout: 30_000 });
    // issue 26 item 7: the language filter offers the library's languages, each with its voices; the
    // accents are those of the language chosen, each once.
    const language = page.getByLabel('Language', { exact: true });
    await expect
      .poll(async () => (await language.locator('option').allTextContents()).slice(1), { timeout: 15_000 })
      .toContain('German (4)');
    for (const option of (await language.locator('option').allTextContents()).slice(1))
      expect(option).toMatch(/^\S.* \(\d+\)$/);
    const accent = page.getByLabel('Accent', { exact: true });
    const accents = await accent.locator('option').allTextContents();
    expect(accents.filter((name) => name === 'Standard')).toHaveLength(1);
    await language.selectOption('de');
    await expect.poll(() => accent.locator('option').allTextContents()).toEqual(['Any', 'Standard']);
    await language.selectOption('');
    await page.getByRole('switch', { name: 'Built-in voices only' }).check();
    await page.getByLabel('Search the library').fill('Klara');
    const klara = cards.getByRole('listitem', { name: 'Klara' });
    await klara.getByText('Built-in', { exact: true }).waitFor();
    await klara.getByRole('button', { name: 'Add Klara to my voices' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Klara to your voices' });
    await dialog.getByRole('button', { name: 'Add to my voices' }).click();
    await klara.getByText('Added', { exact: true }).waitFor({ timeout: 30_000 });

    // accounts §4: add_voice_to_voice_lab completes on "voice added from library".
    await expect
      .poll(
        async () => {
          const res = await page.request.get('/v1/user/onboarding-checklist', { headers });
          const body = (await res.json()) as {
            checklist: { items: { onboarding_checklist_item_id: string; is_completed: boolean }[] } | null;
          };
          return body.checklist?.items.find(
            (i) => i.onboarding_checklist_item_id === 'add_voice_to_voice_lab',
          )?.is_completed;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const mine = await page.request.get('/v2/voices?voice_type=community', { headers });
    expect(((await mine.json()) as { voices: { name: string }[] }).voices.map((v) => v.name)).toEqual([
      'Klara',
    ]);

    // issue 26 item 7: on a phone, every tab of the voice pages is in sight (they wrap, none cut off).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/app/voice-lab');
    const tabs = page.getByRole('navigation', { name: 'Voices' });
    await tabs.getByRole('link', { name: 'Workspace voices' }).waitFor();
    for (const link of await tabs.getByRole('link').all()) {
      const box = await link.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    expect(await tabs.evaluate((nav) => nav.scrollWidth <= nav.clientWidth)).toBe(true);
  });

  test('design a voice from a description → a preview plays → save it → it is among the workspace’s voices', async ({
    page,
  }) => {
    const email = `e2e-design-${Date.now()}@example.test`;
    const token = await signUpInBrowser(page, email, 'design-pass-1!');

    // The voice lab's design form (history/voices §7 text-to-voice), open on its own address.
    await page.goto('/app/voice-lab?creationType=designVoice');
    const descriptionForm = page.getByRole('form', { name: 'Voice description' });
    const description =
      'A warm, calm older woman with a British accent, speaking slowly, for bedtime stories';
    await descriptionForm.getByLabel('Describe the voice').fill(description);
    // What the page understood of the description is shown as it is typed.
    await descriptionForm.getByText(/^Understood: /).waitFor();
    await descriptionForm.getByRole('button', { name: 'Generate', exact: true }).click();

    const save = page.getByRole('form', { name: 'Save the voice' });
    const previews = save.getByRole('list', { name: 'Previews' }).getByRole('listitem');
    // The previews, or the form's error at once (not a time-out that hides it).
    const failure = descriptionForm.getByRole('alert');
    await expect
      .poll(
        async () =>
          (await previews.count()) > 0
            ? 'previews'
            : (await failure.count()) > 0
              ? `failed: ${await failure.first().textContent()}`
              : 'waiting',
        { timeout: 90_000 },
      )
      .toBe('previews');

    // Hear one: it plays in the bottom player (behind the dialog, which hides it from the accessibility
    // tree), and what plays is speech, not silence.
    await save.getByRole('button', { name: 'Play Preview 1' }).click();
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0), { timeout: 20_000 })
      .toBeGreaterThan(0.3);
    const level = audioLevel(await playingAudio(page));
    expect(level.seconds).toBeGreaterThan(2);
    expect(level.rmsDb).toBeGreaterThan(-35);
    expect(level.soundingShare).toBeGreaterThan(0.4);

    // Saved under a name, it is one of the workspace's voices.
    await save.getByLabel('Name').fill('Bedtime narrator');
    await save.getByRole('button', { name: 'Save voice' }).click();
    await page.getByText('Voice saved').first().waitFor({ timeout: 30_000 });
    await page.goto('/app/workspace-voices');
    await page
      .getByRole('list', { name: 'Voices made in this workspace' })
      .getByText('Bedtime narrator')
      .waitFor({ timeout: 15_000 });
    const mine = await page.request.get('/v2/voices?voice_type=personal', {
      headers: { authorization: `Bearer ${token}` },
    });
    const voices = (
      (await mine.json()) as { voices: { name: string; category: string; description: string }[] }
    ).voices;
    expect(voices).toMatchObject([{ name: 'Bedtime narrator', category: 'generated', description }]);
    // Three previews of a neural model's speech on two loaded cores can take most of a minute.
  }, 150_000);
});
