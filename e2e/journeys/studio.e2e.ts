import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect } from 'vitest';
import { signUpInBrowser } from '../support/accounts';
import { closeBrowser, test } from '../support/browser';
import { expectNoOverflow } from '../support/layout';
import { modelsUnavailable, skipWithout } from '../support/models';

afterAll(closeBrowser);

const artifacts = path.resolve(import.meta.dirname, '..', 'artifacts');

/** Studio's default voice is a Piper voice (decision 25): without its model the journey skips. */
const noModel = modelsUnavailable('piper-joe');

/** A small real EPUB: container, package, two spine chapters, each a heading and two paragraphs. */
function makeEpub(file: string): void {
  const chapters = [
    {
      title: 'The Harbour',
      paragraphs: ['The boats came in before dawn.', 'Nobody on the quay said a word.'],
    },
    {
      title: 'The Storm',
      paragraphs: ['By noon the sky had turned to slate.', 'The gulls flew inland, low and fast.'],
    },
  ];
  const files: Record<string, Uint8Array> = {
    mimetype: strToU8('application/epub+zip'),
    'META-INF/container.xml': strToU8(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'OEBPS/content.opf': strToU8(
      `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Harbour Tales</dc:title></metadata><manifest>${chapters
        .map((_, i) => `<item id="c${i}" href="c${i}.xhtml" media-type="application/xhtml+xml"/>`)
        .join(
          '',
        )}</manifest><spine>${chapters.map((_, i) => `<itemref idref="c${i}"/>`).join('')}</spine></package>`,
    ),
  };
  chapters.forEach((chapter, i) => {
    files[`OEBPS/c${i}.xhtml`] = strToU8(
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${chapter.title}</title></head><body><h1>${chapter.title}</h1>${chapter.paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`,
    );
  });
  fs.writeFileSync(file, zipSync(files));
}

describe('Studio', () => {
  test('import a small EPUB → change a paragraph’s voice → convert with the progress bar → the m4b has the chapters', async ({
    page,
    task,
    skip,
  }) => {
    skipWithout({ task, skip }, noModel);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-e2e-studio-'));
    const epub = path.join(dir, 'harbour-tales.epub');
    makeEpub(epub);

    await signUpInBrowser(page, `e2e-studio-${Date.now()}@example.test`, 'Correct-horse-battery-9!');
    await page.goto('/app/studio');
    await page.getByRole('button', { name: 'Create your first project' }).click();
    const create = page.getByRole('dialog', { name: 'New project' });
    await create.getByLabel('Name', { exact: true }).fill('Harbour Tales');
    await create.getByRole('radio', { name: 'Document' }).check();
    await create.getByLabel('Document file').setInputFiles(epub);
    await create.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/app\/studio\/[^/]+$/);
    await page.getByRole('heading', { level: 1, name: 'Harbour Tales' }).waitFor();
    await page
      .getByRole('textbox', { name: /^Text of paragraph 2/ })
      .first()
      .waitFor();
    await expect
      .poll(async () =>
        (
          await page
            .getByRole('textbox', { name: /^Text of paragraph 2/ })
            .first()
            .inputValue()
        ).trim(),
      )
      .toBe('The boats came in before dawn.');

    // The second paragraph (the first after the heading) gets another voice that Piper, the project's
    // model, speaks: Adam instead of the default Onyx.
    const chip = page.getByRole('button', { name: /^Voice of paragraph 2: / }).first();
    await expect.poll(() => chip.getAttribute('aria-label')).toBe('Voice of paragraph 2: Onyx');
    await chip.click();
    await page
      .getByRole('dialog', { name: 'Choose a voice' })
      .getByRole('button', { name: 'Use Adam', exact: true })
      .click();
    await expect.poll(() => chip.getAttribute('aria-label')).toBe('Voice of paragraph 2: Adam');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Saved', exact: true }).waitFor();

    // Convert: the progress bar shows while it runs, then the project is ready again.
    await page.getByRole('button', { name: 'Convert project' }).click();
    await page.getByRole('progressbar', { name: 'Converting the project' }).waitFor();
    await page.getByRole('progressbar', { name: 'Converting the project' }).waitFor({
      state: 'detached',
      timeout: 120_000,
    });
    await page.getByText(/^Ready · 2 chapters/).waitFor();

    fs.mkdirSync(artifacts, { recursive: true });
    await expectNoOverflow(page, 'the Studio editor at 1440 px');
    await page.screenshot({ path: path.join(artifacts, 'studio-editor-1440.png'), fullPage: true });

    // The whole book as an m4b: ffprobe finds one chapter mark per chapter, named after it.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export' });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      exportDialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.m4b$/);
    const m4b = path.join(dir, 'book.m4b');
    await download.saveAs(m4b);
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_chapters', '-show_format', '-of', 'json', m4b], {
        encoding: 'utf8',
      }),
    ) as { chapters: { tags?: { title?: string } }[]; format: { duration: string } };
    expect(probe.chapters.map((chapter) => chapter.tags?.title)).toEqual(['The Harbour', 'The Storm']);
    expect(Number(probe.format.duration)).toBeGreaterThan(3);

    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoOverflow(page, 'the Studio editor at 390 px');
    await page.screenshot({ path: path.join(artifacts, 'studio-editor-390.png'), fullPage: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
