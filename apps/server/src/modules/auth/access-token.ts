import { createHmac, timingSafeEqual } from 'node:crypto';

/** accounts §4 / issue 3: an access token is valid 5 minutes; the web app refreshes it every 5 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 5 * 60;

export interface AccessClaims {
  /** The user id. */
  sub: string;
  /** The workspace the token acts in. */
  wid: string;
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function sign(input: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

/** A compact HS256 JWT for the user and workspace, valid for 5 minutes from `now`. */
export function signAccessToken(
  subject: { userId: string; workspaceId: string },
  secret: string,
  now: Date,
): string {
  const iat = Math.floor(now.getTime() / 1000);
  const claims: AccessClaims = {
    sub: subject.userId,
    wid: subject.workspaceId,
    iat,
    exp: iat + ACCESS_TOKEN_TTL_SECONDS,
  };
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${sign(body, secret).toString('base64url')}`;
}

/** The claims of a valid, unexpired token signed with `secret`; undefined for anything else (never throws). */
export function verifyAccessToken(token: string, secret: string, now: Date): AccessClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  if (header !== HEADER) return undefined;
  const expected = sign(`${header}.${payload}`, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isClaims(claims)) return undefined;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return claims.exp > nowSeconds ? claims : undefined;
}

function isClaims(value: unknown): value is AccessClaims {
  const c = value as Partial<AccessClaims> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.sub === 'string' &&
    typeof c.wid === 'string' &&
    Number.isInteger(c.iat) &&
    Number.isInteger(c.exp)
  );
}
