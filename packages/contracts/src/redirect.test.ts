import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvePostLoginRedirect } from './redirect';

const origin = 'https://parla.example.com';
const options = { origin, fallback: '/app/home', extraPaths: ['/app/voice-library'] };
const resolve = (raw: string | null | undefined) => resolvePostLoginRedirect(raw, options);

describe('post-login redirect (accounts §2)', () => {
  it('falls back when there is no parameter', () => {
    expect(resolve(undefined)).toBe('/app/home');
    expect(resolve(null)).toBe('/app/home');
    expect(resolve('')).toBe('/app/home');
  });

  it('follows the allowed names, under /app/ or at the top, with their sub-pages', () => {
    expect(resolve('/app/subscription')).toBe('/app/subscription');
    expect(resolve('/app/speech-synthesis/text-to-speech?voice=abc#top')).toBe(
      '/app/speech-synthesis/text-to-speech?voice=abc#top',
    );
    expect(resolve('/affiliates')).toBe('/affiliates');
    expect(resolve(`${origin}/app/usage`)).toBe('/app/usage');
  });

  it('follows the allowed shapes', () => {
    for (const path of [
      '/v1/dubs/dub_123',
      '/v1/projects/AbC9',
      '/app/voice-lab/share/abc/def',
      '/sound-effects/thunder-roll',
      '/app/studio/p1',
    ]) {
      expect(resolve(path)).toBe(path);
    }
  });

  it('keeps only the listed query keys of the Vercel callback', () => {
    expect(
      resolve('/app/integrations/vercel/callback?code=c&configurationId=k&next=/x&source=s&teamId=t&evil=1'),
    ).toBe('/app/integrations/vercel/callback?code=c&configurationId=k&next=%2Fx&source=s&teamId=t');
  });

  it('follows the further route tables passed in, exactly', () => {
    expect(resolve('/app/voice-library')).toBe('/app/voice-library');
    expect(resolve('/app/voice-library/collections')).toBe('/app/home');
  });

  it('refuses other places, other origins and every trick to leave the origin', () => {
    for (const raw of [
      '/app/settings',
      '/v1/dubs/a/b',
      '/app/studio/',
      'https://evil.example/app/subscription',
      '//evil.example/app/subscription',
      '/\\evil.example/app/subscription',
      '\\\\evil.example',
      '/\t/evil.example/app/usage',
      'javascript:alert(1)',
      'data:text/html,hi',
      'https://parla.example.com.evil.example/app/usage',
      'https://user:pass@parla.example.com/app/usage',
      'http://parla.example.com/app/usage',
    ]) {
      expect(resolve(raw), raw).toBe('/app/home');
    }
  });

  it('never leads off the origin, whatever the input', () => {
    const tricky = fc.constantFrom(
      '/',
      '//',
      '/\\',
      '\\',
      'http:',
      'https:',
      'javascript:',
      '%2f',
      '\t',
      '\n',
      ' ',
      '@',
      '.',
      '..',
    );
    const input = fc.oneof(
      fc.string(),
      fc.webUrl(),
      fc
        .array(
          fc.oneof(
            tricky,
            fc.constantFrom('evil.example', 'app', 'subscription', 'usage'),
            fc.string({ maxLength: 4 }),
          ),
          {
            maxLength: 8,
          },
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(input, (raw) => {
        const result = resolve(raw);
        expect(result.startsWith('/')).toBe(true);
        expect(result.startsWith('//')).toBe(false);
        expect(result.startsWith('/\\')).toBe(false);
        expect(new URL(result, origin).origin).toBe(origin);
      }),
      { numRuns: 5000 },
    );
  });
});
