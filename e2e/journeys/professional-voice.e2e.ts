import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { payForPlan, signUpInBrowser } from '../support/accounts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, clientHeaders, closeBrowser, test } from '../support/browser';
import { modelsUnavailable, skipWithout } from '../support/models';

afterAll(closeBrowser);

/** The server hears speech with the real models: the journey that needs them skips, saying why, without. */
const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');

/** A premade voice (Alan, flite's awb): the "owner" whose recording this journey uploads as its sample. */
const OWNER_VOICE_ID = 'TxGEqnHWrfWFTfGW9XjX';

const SAMPLE_TEXT = [
  'Good morning, and welcome to the recording of my voice.',
  'I am reading a few paragraphs aloud so that the studio can learn how I speak.',
  'Yesterday I walked along the river to the old market, where the stalls sell bread, cheese and fresh fruit.',
  'The weather was mild, and a light wind came from the hills to the west.',
  'After lunch I went back home, made a pot of tea and read the newspaper by the window.',
  'In the evening my friends came over, and we talked about our plans for the summer holidays.',
  'Some of them want to travel to the sea, and others would rather stay in the mountains.',
  'I have not decided yet, but I would like to see a place I have never visited before.',
].join(' ');

const artifacts = path.resolve(import.meta.dirname, '..', 'artifacts');

/**
 * Speech from our own text to speech, as a 48 kHz WAV (the rate Chromium's fake microphone plays). A 503
 * (every engine busy on a loaded machine) is asked again, up to three times.
 */
async function speak(page: Page, token: string, text: string): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    const answer = await page.request.post(`/v1/text-to-speech/${OWNER_VOICE_ID}?output_format=wav_48000`, {
      headers: { authorization: `Bearer ${token}` },
      data: { text, model_id: 'parla_v1' },
      timeout: 120_000,
    });
    if (answer.status() === 503 && attempt < 3) {
      await new Promise((r) => setTimeout(r, 5000));
      continue;
    }
    expect(answer.status()).toBe(200);
    return Buffer.from(await answer.body());
  }
}

/**
 * The owner reading a sentence aloud, as a 48 kHz WAV: flite's awb voice (the engine of Alan, whose speech
 * the samples are) run here, not by the server. The server's own speech of the sentence would be refused
 * as generated (issue 26 item 7), as it should be. `-fflags +bitexact` keeps the header at 44 bytes.
 */
function readAloud(dir: string, text: string): Buffer {
  const raw = path.join(dir, 'reading-16k.wav');
  const wav = path.join(dir, 'reading.wav');
  execFileSync('flite', ['-voice', 'awb', '-t', text, '-o', raw]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '48000', '-fflags', '+bitexact', wav]);
  return fs.readFileSync(wav);
}

describe('professional voice cloning', () => {
  test('create → long sample → speakers → captcha read into the microphone → train → speak on the speech page', async ({
    baseUrl,
    task,
    skip,
  }) => {
    skipWithout({ task, skip }, noModel);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-e2e-pvc-'));
    // Chromium's fake microphone plays this file. Its sentence is only known once the page shows it,
    // so the file is written then, before recording starts (Chromium opens it when capture starts).
    const microphone = path.join(dir, 'microphone.wav');
    let browser: Browser | undefined;
    let page: Page | undefined;
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [
          ...CHROMIUM_ARGS,
          '--use-fake-ui-for-media-stream',
          '--use-fake-device-for-media-stream',
          `--use-file-for-fake-audio-capture=${microphone}%noloop`,
        ],
      });
      const context = await browser.newContext({
        baseURL: baseUrl,
        permissions: ['microphone'],
        extraHTTPHeaders: clientHeaders(),
      });
      page = await context.newPage();
      page.setDefaultTimeout(60_000);
      const email = `e2e-pvc-${Date.now()}@example.test`;
      const token = await signUpInBrowser(page, email, 'pvc-pass-1!');

      // On the free plan the flow says it needs an upgrade and links to the plans.
      await page.goto('/app/voice-lab/professional');
      await page
        .getByRole('heading', { name: 'Your plan does not include professional voice cloning' })
        .waitFor();
      expect(await page.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
        '/app/subscription',
      );

      await payForPlan(page, token, 'creator');
      const sample = path.join(dir, 'my-voice-recording.wav');
      fs.writeFileSync(sample, await speak(page, token, SAMPLE_TEXT));

      // Add a voice → Professional voice clone → details.
      await page.goto('/app/voice-lab');
      await page.getByRole('heading', { level: 1, name: 'Voice lab' }).waitFor();
      await page.getByRole('button', { name: 'Add a voice' }).click();
      await page
        .getByRole('dialog', { name: 'Add a voice' })
        .getByRole('link', { name: /^Professional voice clone/ })
        .click();
      const details = page.getByRole('form', { name: 'Professional voice details' });
      await details.getByLabel('Name').fill('My professional e2e voice');
      await details.getByLabel('Language').selectOption('en');
      await details.getByRole('checkbox', { name: /This is my own voice/ }).check();
      await details.getByRole('button', { name: 'Create and add samples' }).click();
      await page.getByRole('heading', { level: 1, name: 'My professional e2e voice' }).waitFor();
      const voiceId = /\/app\/voice-lab\/professional\/([^/?#]+)/.exec(page.url())?.[1] ?? '';
      expect(voiceId).not.toBe('');

      // Samples: the long recording, uploaded and measured.
      await page.getByRole('heading', { level: 2, name: 'Samples' }).waitFor();
      await page.getByLabel('Sample files').setInputFiles(sample);
      const uploaded = page.getByRole('list', { name: 'Uploaded samples' });
      await uploaded.getByText('my-voice-recording.wav').waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Continue to speakers' }).click();

      // Speakers: separated on the server, listened to, the voice kept.
      await page.getByRole('heading', { level: 2, name: 'Speakers' }).waitFor();
      await page.getByRole('button', { name: 'Separate speakers' }).click();
      const speaker = page.getByRole('checkbox', { name: /^Speaker 1/ });
      await speaker.waitFor({ timeout: 60_000 });
      expect(await speaker.isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Listen to Speaker 1' }).click();
      await page.getByLabel("Speaker 1's speech").waitFor();
      await expect
        .poll(() => page?.evaluate(() => document.querySelector('audio')?.duration ?? 0), { timeout: 20_000 })
        .toBeGreaterThan(5);
      await page.getByRole('button', { name: 'Continue to verification' }).click();

      // Verification: the sentence shown, read by the owner into the (fake) microphone.
      await page.getByRole('heading', { level: 2, name: 'Verification' }).waitFor();
      const sentence = page.locator('blockquote');
      await sentence.waitFor();
      const text = (await sentence.textContent())?.trim() ?? '';
      expect(text.length).toBeGreaterThan(10);
      const reading = readAloud(dir, text);
      fs.writeFileSync(microphone, reading);
      // The WAV's length, from its header's byte rate.
      const seconds = (reading.length - 44) / reading.readUInt32LE(28);
      await page.getByRole('button', { name: 'Record', exact: true }).click();
      await page.getByRole('button', { name: 'Stop' }).waitFor();
      await page.waitForTimeout(Math.ceil((seconds + 1) * 1000));
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.getByRole('region', { name: 'Your recording' }).waitFor();
      await page.getByRole('button', { name: 'Send the reading' }).click();

      // Training: started, followed on its progress bar until the voice is ready.
      // The server transcribes the reading (speech to text), which takes a while on a loaded machine.
      await page.getByRole('heading', { level: 2, name: 'Training' }).waitFor({ timeout: 240_000 });
      await page.getByRole('button', { name: 'Start training' }).click();
      await page
        .getByText('My professional e2e voice is trained and ready to speak.')
        .waitFor({ timeout: 180_000 });
      const voice = await page.request.get(`/v1/voices/${voiceId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(
        ((await voice.json()) as { voice_verification: { is_verified: boolean } }).voice_verification
          .is_verified,
      ).toBe(true);

      // The voice lab shows it ready.
      await page.goto('/app/voice-lab');
      const row = page.getByRole('listitem', { name: 'My professional e2e voice' });
      await row.getByText('Ready', { exact: true }).waitFor();

      // It speaks on the speech page.
      await page.goto(`/app/voice-lab/professional/${voiceId}`);
      await page.getByRole('button', { name: 'Use in text to speech' }).click();
      await page.getByRole('heading', { level: 1, name: 'Text to speech' }).waitFor();
      const spoken = 'A sentence in my professional voice, which I never recorded.';
      await page.getByLabel('Text').fill(spoken);
      await page.getByRole('button', { name: 'Generate speech' }).click();
      await page.getByRole('region', { name: 'Audio player' }).waitFor({ timeout: 60_000 });
      await expect
        .poll(() => page?.evaluate(() => document.querySelector('audio')?.currentTime ?? 0), {
          timeout: 30_000,
        })
        .toBeGreaterThan(0.3);
      // The generation is kept in the history once its stream ends: spoken by the professional voice.
      const signedIn = page;
      const spokenBy = async () => {
        const history = await signedIn.request.get('/v1/history?page_size=5', {
          headers: { authorization: `Bearer ${token}` },
        });
        const items = ((await history.json()) as { history: Array<{ voice_id: string; text: string }> })
          .history;
        return items.find((item) => item.text === spoken)?.voice_id;
      };
      await expect.poll(spokenBy, { timeout: 60_000 }).toBe(voiceId);
    } catch (error) {
      fs.mkdirSync(artifacts, { recursive: true });
      await page
        ?.screenshot({ path: path.join(artifacts, 'professional-voice.png'), fullPage: true })
        .catch(() => {});
      throw error;
    } finally {
      await browser?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 590_000);
});
