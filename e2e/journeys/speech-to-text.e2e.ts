import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { accessTokenOf, signUpInBrowser } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';
import { modelsUnavailable, skipWithout } from '../support/models';

afterAll(closeBrowser);

/** The server hears speech with the real models: the journey that needs them skips, saying why, without. */
const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad');

/** The sentence spoken into the recording. */
const SENTENCE = 'The quick brown fox jumps over the lazy dog, and then it runs back to the river.';

interface Word {
  text: string;
  start: number;
  end: number;
  type: string;
}

/** A word for comparing: lower case, letters only. */
const bare = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

describe('speech to text', () => {
  test('upload a recording → its transcript appears → a word seeks the player → an SRT downloads', async ({
    page,
    task,
    skip,
  }) => {
    skipWithout({ task, skip }, noModel);
    // A real recording of a clear English sentence: Debian's flite, as a WAV file on disk.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-e2e-stt-'));
    const recording = path.join(dir, 'fox-sentence.wav');
    execFileSync('flite', ['-voice', 'slt', '-t', SENTENCE, '-o', recording]);

    await signUpInBrowser(page, `e2e-stt-${Date.now()}@example.test`, 'Correct-horse-battery-9!');
    await page.goto('/app/speech-to-text');
    await page.getByRole('heading', { level: 1, name: 'Speech to text' }).waitFor();
    await page.getByRole('main').getByText('No transcripts yet').waitFor();

    await page.getByLabel('Audio or video file').setInputFiles(recording);
    await page.getByRole('region', { name: 'File to transcribe' }).getByText('fox-sentence.wav').waitFor();
    await page.getByRole('button', { name: 'Transcribe', exact: true }).click();

    // Listed at once, then ready: its title becomes a link to the transcript.
    const list = page.getByRole('list', { name: 'Transcripts' });
    await list.getByText('fox-sentence').first().waitFor({ timeout: 30_000 });
    const open = list.getByRole('link', { name: 'fox-sentence', exact: true });
    await open.waitFor({ timeout: 180_000 });
    await open.click();
    await page.getByRole('heading', { level: 1, name: 'fox-sentence' }).waitFor();

    // The transcript holds the sentence's words.
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.getByRole('button').first().waitFor();
    // (A recogniser may join or mishear a word of synthetic speech: most of them, not each, must be there.)
    const shown = (await transcript.getByRole('button').allTextContents()).map(bare);
    const expected = ['quick', 'brown', 'fox', 'over', 'lazy', 'dog', 'then', 'back', 'river'];
    expect(expected.filter((w) => shown.includes(w)).length).toBeGreaterThanOrEqual(6);

    // The word times, from the public API's transcript.
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    const token = await accessTokenOf(page);
    const answer = await page.request.get(`/v1/speech-to-text/transcripts/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status()).toBe(200);
    const words = ((await answer.json()) as { words: Word[] }).words.filter((w) => w.type === 'word');
    const target = words.find((w) => ['lazy', 'dog', 'river'].includes(bare(w.text)));
    expect(target).toBeDefined();
    expect(target?.start ?? 0).toBeGreaterThan(1);

    // Clicking the word loads the recording into the bottom player and plays from that word.
    await transcript
      .getByRole('button', { name: target?.text ?? 'lazy', exact: true })
      .first()
      .click();
    await page.getByRole('region', { name: 'Audio player' }).waitFor({ timeout: 30_000 });
    const start = target?.start ?? 0;
    await expect
      .poll(
        () =>
          page.evaluate(
            () => document.querySelector<HTMLAudioElement>('audio:not([controls])')?.currentTime ?? 0,
          ),
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(start - 0.05);
    const now = await page.evaluate(
      () => document.querySelector<HTMLAudioElement>('audio:not([controls])')?.currentTime ?? 0,
    );
    expect(now).toBeLessThan(start + 1.5);
    // The word being spoken is marked.
    await transcript.locator('[aria-current="true"]').first().waitFor({ timeout: 10_000 });

    // Export as SRT: a download named after the transcript with a cue holding the words.
    const saving = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: /Subtitles \(SRT\)/ }).click();
    const srt = await saving;
    expect(srt.suggestedFilename()).toMatch(/^fox-sentence.*\.srt$/);
    const text = fs.readFileSync(await srt.path(), 'utf8');
    expect(text).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d\r?\n/);
    expect(text.toLowerCase()).toContain('fox');
    expect(text.toLowerCase()).toContain('river');
    fs.rmSync(dir, { recursive: true, force: true });
    // The transcription runs in the engine children, which a loaded machine shares with other work.
  }, 240_000);
});
