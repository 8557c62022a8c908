import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from './web-app';

describe('inlineScriptHashes', () => {
  it('hashes inline scripts only, for the CSP', () => {
    const body = "document.documentElement.dataset.theme='dark'";
    const html = `<head><script>${body}</script><script type="module" src="/assets/a.js"></script><script> </script></head>`;
    const expected = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
    expect(inlineScriptHashes(html)).toEqual([expected]);
  });
});
