import { KB_MAX_FILE_BYTES } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import {
  describeIndex,
  extractedText,
  formatBytes,
  kbFileProblem,
  kbTextProblem,
  kbUrlProblem,
} from './kb-rules';

describe('knowledge-base rules', () => {
  it('takes the six document file types and refuses the rest, empty files and files over the limit', () => {
    for (const name of ['a.pdf', 'b.DOCX', 'c.txt', 'd.html', 'e.htm', 'f.md', 'g.epub'])
      expect(kbFileProblem({ name, size: 10 })).toBeNull();
    expect(kbFileProblem({ name: 'song.mp3', size: 10 })).toMatch(/not a file the knowledge base reads/);
    expect(kbFileProblem({ name: 'README', size: 10 })).toMatch(/not a file/);
    expect(kbFileProblem({ name: 'empty.txt', size: 0 })).toBe('empty.txt is empty.');
    expect(kbFileProblem({ name: 'big.pdf', size: KB_MAX_FILE_BYTES + 1 })).toMatch(/at most 20 MB/);
    expect(kbFileProblem({ name: 'edge.pdf', size: KB_MAX_FILE_BYTES })).toBeNull();
  });

  it('asks for a full web address and non-empty text', () => {
    expect(kbUrlProblem('  ')).toBe('Enter the address of the page.');
    expect(kbUrlProblem('example.com/help')).toMatch(/full address/);
    expect(kbUrlProblem('ftp://example.com/a')).toMatch(/http or https/);
    expect(kbUrlProblem(' https://example.com/help ')).toBeNull();
    expect(kbTextProblem(' \n ')).toBe('The text is empty.');
    expect(kbTextProblem('Open 9 to 5.')).toBeNull();
  });

  it('shows extracted HTML as text, without running or loading anything in it', () => {
    const html =
      '<h1>Returns</h1><p>Within <b>30</b> days.</p><script>window.hacked = true</script><img src=x onerror="window.hacked=true"><ul><li>Receipt</li><li>Box</li></ul>';
    const text = extractedText(html, 'html');
    expect(text).toBe('Returns\nWithin 30 days.\nReceipt\nBox');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    expect(extractedText('# Title\n\nBody <b>kept</b>\n', 'markdown')).toBe('# Title\n\nBody <b>kept</b>');
  });

  it('says sizes and index states plainly', () => {
    expect(formatBytes(820)).toBe('820 B');
    expect(formatBytes(14_540)).toBe('14.2 KB');
    expect(formatBytes(3.1 * 1024 * 1024)).toBe('3.1 MB');
    expect(describeIndex(undefined).label).toBe('Not indexed');
    const index = {
      id: 'd_e5',
      model: 'e5_mistral_7b_instruct',
      progress_percentage: 100,
      document_model_index_usage: { used_bytes: 1 },
      search: 'full_text',
      embeddings: 'not_configured',
      message: '',
    } as const;
    expect(describeIndex({ ...index, status: 'succeeded' })).toEqual({ label: 'Indexed', tone: 'success' });
    expect(describeIndex({ ...index, status: 'document_too_small' }).label).toBe('Nothing to index');
    expect(describeIndex({ ...index, status: 'failed' }).tone).toBe('danger');
  });
});
