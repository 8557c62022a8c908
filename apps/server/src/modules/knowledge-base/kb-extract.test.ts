import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { tinyDocx, tinyEpub, tinyPdf } from '../../test/document-fixtures';
import { extractFile, extractHtml, extractMarkdown, fileTypeOf } from './kb-extract';

const unreadable = (message: RegExp) =>
  expect.objectContaining({ code: 'document_unreadable', message: expect.stringMatching(message) });

describe('knowledge-base extraction', () => {
  it('reads a PDF’s text', async () => {
    const out = await extractFile(tinyPdf(['Opening hours: 9 to 5.', 'Closed on Sundays.']), 'pdf');
    expect(out.text).toContain('Opening hours: 9 to 5.');
    expect(out.text).toContain('Closed on Sundays.');
    expect(out.html).toMatch(/^<p>Opening hours/);
  });

  it('refuses a damaged PDF and one that is not a PDF', async () => {
    await expect(extractFile(Buffer.from('%PDF-1.4\n1 0 obj garbage'), 'pdf')).rejects.toEqual(
      unreadable(/PDF is damaged/),
    );
    await expect(extractFile(Buffer.from('hello'), 'pdf')).rejects.toEqual(unreadable(/not a PDF/));
  });

  it('reads a DOCX’s paragraphs and headings, and its title', async () => {
    const out = await extractFile(
      tinyDocx([{ heading: 'Returns' }, 'Items can be returned within 30 days & a receipt.']),
      'docx',
    );
    expect(out.html).toBe('<h1>Returns</h1><p>Items can be returned within 30 days &#38; a receipt.</p>');
    expect(out.text).toBe('Returns\n\nItems can be returned within 30 days & a receipt.');
    expect(out.title).toBe('Handbook');
  });

  it('refuses a zip that is not a DOCX, and a damaged zip', async () => {
    const other = Buffer.from(zipSync({ 'a.txt': strToU8('hello') }));
    await expect(extractFile(other, 'docx')).rejects.toEqual(unreadable(/no word\/document.xml/));
    const broken = Buffer.from(tinyDocx(['text']).subarray(0, 60));
    await expect(extractFile(broken, 'docx')).rejects.toEqual(unreadable(/damaged/));
  });

  it('reads an EPUB’s chapters in spine order', async () => {
    const out = await extractFile(
      tinyEpub(['<h1>Chapter one</h1><p>The first words.</p>', '<p>The second chapter.</p>']),
      'epub',
    );
    expect(out.text).toBe('Chapter one\n\nThe first words.\n\nThe second chapter.');
    expect(out.title).toBe('Guide');
  });

  it('reads HTML without scripts, styles or navigation', () => {
    const out = extractHtml(
      '<html><head><title>Shop</title><style>p{}</style></head><body><nav>Home | About</nav>' +
        '<h2>Hours</h2><p>Open <b>9</b>&ndash;5.<script>alert(1)</script></p><ul><li>Mon</li><li>Tue</li></ul></body></html>',
    );
    expect(out.title).toBe('Shop');
    expect(out.text).toBe('Hours\n\nOpen 9–5.\n\n- Mon\n\n- Tue');
    expect(out.html).toBe('<h2>Hours</h2><p>Open 9–5.</p><ul><li>Mon</li><li>Tue</li></ul>');
  });

  it('keeps markdown for the content call and strips it for search', () => {
    const out = extractMarkdown('# Hours\n\nWe open at **nine**, see [the map](https://x.test).');
    expect(out.format).toBe('markdown');
    expect(out.html).toBe('# Hours\n\nWe open at **nine**, see [the map](https://x.test).');
    expect(out.text).toBe('Hours\n\nWe open at nine, see the map.');
  });

  it('refuses text that is not UTF-8, binary data and a document without words', async () => {
    await expect(extractFile(Buffer.from([0xff, 0xfe, 0x41]), 'txt')).rejects.toEqual(
      unreadable(/not UTF-8/),
    );
    await expect(extractFile(Buffer.from('a\u0000b'), 'txt')).rejects.toEqual(unreadable(/binary/));
    await expect(extractFile(Buffer.from('<p> </p>'), 'html')).rejects.toEqual(unreadable(/no text/));
    await expect(extractFile(tinyPdf([]), 'pdf')).rejects.toEqual(unreadable(/scanned/));
  });

  it('knows a file’s type by its extension, else its content type', () => {
    expect(fileTypeOf('Guide.PDF', 'application/octet-stream')).toBe('pdf');
    expect(fileTypeOf('notes', 'text/markdown')).toBe('md');
    expect(fileTypeOf('sheet.xlsx', 'application/pdf')).toBeUndefined();
    expect(fileTypeOf('blob', 'image/png')).toBeUndefined();
  });
});
