import { createHash } from 'node:crypto';

/** The SHA-256 of a secret, hex: how one-time codes and tokens are stored (never the secret itself). */
export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
