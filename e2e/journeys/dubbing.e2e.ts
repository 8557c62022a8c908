import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { signUpInBrowser } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';
import { modelsUnavailable, skipWithout } from '../support/models';

afterAll(closeBrowser);

/** A dub hears the source and speaks Spanish with the real models: without them the journey skips. */
const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad', 'kokoro-82m');

/**
 * A short video with two speakers: flite's two voices, one after the other, over ffmpeg's test picture
 * (issue 29 "Done when": create a dub from an uploaded video, watch its progress, open the editor, change
 * one translated line, re-render, download the mp4).
 */
function makeVideo(dir: string): string {
  const lines: [string, string][] = [
    ['slt', 'Good morning everyone, and welcome to the product demo.'],
    ['kal', 'Thank you. Today we will show you the new editor.'],
  ];
  const wavs = lines.map(([voice, text], index) => {
    const file = path.join(dir, `line-${index}.wav`);
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', file]);
    return file;
  });
  const video = path.join(dir, 'product-demo.mp4');
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-y'],
    ...wavs.flatMap((file) => ['-i', file]),
    ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
    '-filter_complex',
    '[0]aresample=48000,apad=pad_dur=0.7[a0];[1]aresample=48000[a1];[a0][a1]concat=n=2:v=0:a=1[a]',
    ...['-map', '2:v', '-map', '[a]', '-shortest'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video],
  ]);
  return video;
}

describe('dubbing', () => {
  test('upload a video → its progress → the editor: change a translated line, re-dub it, render → the mp4 downloads', async ({
    page,
    task,
    skip,
  }) => {
    skipWithout({ task, skip }, noModel);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-e2e-dub-'));
    const video = makeVideo(dir);

    await signUpInBrowser(page, `e2e-dub-${Date.now()}@example.test`, 'Correct-horse-battery-9!');
    await page.goto('/app/dubbing');
    await page.getByRole('heading', { level: 1, name: 'Dubbing' }).waitFor();
    await page.getByRole('button', { name: 'Create your first dub' }).click();
    const dialog = page.getByRole('dialog', { name: 'New dub' });
    await dialog.getByLabel('Video or audio file').setInputFiles(video);
    // The browser reads the video's length: the estimate is a number of credits.
    await dialog.getByText(/^\d[\d,]* credits$/).waitFor();
    await dialog.getByRole('combobox', { name: 'Source language' }).selectOption('en');
    await dialog.getByRole('combobox', { name: 'Dub into' }).selectOption('es');
    await dialog.getByRole('button', { name: 'Start dubbing' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Listed at once, then made: the editor opens.
    const list = page.getByRole('list', { name: 'Dubs' });
    await list.getByText('product-demo').first().waitFor({ timeout: 30_000 });
    const open = list.getByRole('link', { name: 'Open product-demo in the editor' });
    await open.waitFor({ timeout: 180_000 });
    await open.click();
    await page.getByRole('heading', { level: 1, name: 'product-demo' }).waitFor();

    // The timeline has the segments, one of them selected, with its Spanish translation.
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const blocks = timeline.locator('button[data-segment-id]');
    await blocks.first().waitFor();
    expect(await blocks.count()).toBeGreaterThanOrEqual(2);
    await blocks.last().click();
    const panel = page.getByRole('region', { name: 'Selected segment' });
    const translation = panel.getByRole('textbox', { name: 'Translation (Spanish)' });
    expect((await translation.inputValue()).trim()).not.toBe('');

    // Change the line: saved, its dubbed audio now out of date; re-dub it.
    await translation.fill('Gracias. Hoy os enseñamos el editor nuevo.');
    await panel.getByRole('button', { name: 'Save translation' }).click();
    await panel.getByText('Audio out of date').waitFor({ timeout: 15_000 });
    await panel.getByRole('button', { name: 'Re-dub' }).click();
    await panel.getByText('Audio out of date').waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(() => blocks.last().getAttribute('aria-label')).toContain('Hoy os enseñamos');

    // Render the Spanish video: processing, then a download of an mp4.
    const render = page.getByRole('region', { name: 'Render and download' });
    await render.getByRole('combobox', { name: 'Render Spanish as' }).selectOption('mp4');
    const started = page.waitForResponse(
      (r) => r.request().method() === 'POST' && /\/render\/es$/.test(r.url()),
    );
    await render.getByRole('button', { name: 'Render', exact: true }).click();
    expect((await started).status()).toBe(200);
    // The new render, made after the change: not one from before it.
    await render.getByText('Made before the latest changes').waitFor({ state: 'detached' });
    const downloadButton = render.getByRole('button', { name: 'Download render' });
    await downloadButton.waitFor({ timeout: 120_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
    expect(download.suggestedFilename()).toBe('product-demo_es.mp4');
    const saved = path.join(dir, 'dubbed.mp4');
    await download.saveAs(saved);
    // An mp4 with a video and an audio stream, as long as the source (within 2 %).
    const probe = (file: string) =>
      JSON.parse(
        execFileSync(
          'ffprobe',
          ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', file],
          {
            encoding: 'utf8',
          },
        ),
      ) as { format: { duration: string }; streams: { codec_type: string }[] };
    const out = probe(saved);
    expect(out.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    const source = Number(probe(video).format.duration);
    expect(Math.abs(Number(out.format.duration) - source) / source).toBeLessThan(0.02);
  });
});
