import { afterEach, describe, expect, it } from 'vitest';
import { afterSignInPath, defaultAfterSignIn } from './post-login';

const origin = 'http://127.0.0.1:8080';
const search = (query: string) => new URLSearchParams(query);

afterEach(() => localStorage.removeItem('xi:invite-code'));

describe('afterSignInPath (accounts §2 post-login redirect)', () => {
  it('follows an allowed redirect, else the default', () => {
    expect(afterSignInPath(search('redirect=/app/subscription'), origin)).toBe('/app/subscription');
    expect(afterSignInPath(search('redirect=https://evil.example/app'), origin)).toBe(defaultAfterSignIn);
    expect(afterSignInPath(search(''), origin)).toBe(defaultAfterSignIn);
  });

  it('opens a dub’s editor for the allowed shape /v1/dubs/{id}', () => {
    expect(afterSignInPath(search('redirect=/v1/dubs/abc123'), origin)).toBe('/app/dubbing/abc123');
    expect(afterSignInPath(search('redirect=/v1/dubs/a/b'), origin)).toBe(defaultAfterSignIn);
  });

  it('opens a Studio project’s editor for the allowed shapes /v1/projects/{id} and /app/studio/{id} (issue 30)', () => {
    expect(afterSignInPath(search('redirect=/v1/projects/p_42'), origin)).toBe('/app/studio/p_42');
    expect(afterSignInPath(search('redirect=/app/studio/p_42'), origin)).toBe('/app/studio/p_42');
    expect(afterSignInPath(search('redirect=/v1/projects/a/b'), origin)).toBe(defaultAfterSignIn);
    expect(afterSignInPath(search('redirect=/app/studio/a/b'), origin)).toBe(defaultAfterSignIn);
  });

  it('leads to an invitation kept from a link opened while signed out, when no redirect was asked (issue 18)', () => {
    localStorage.setItem('xi:invite-code', 'CODE123');
    expect(afterSignInPath(search(''), origin)).toBe('/app/settings/workspace-invites?invite_code=CODE123');
    // An asked-for page still wins.
    expect(afterSignInPath(search('redirect=/app/subscription'), origin)).toBe('/app/subscription');
  });
});
