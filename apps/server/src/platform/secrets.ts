import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** The SHA-256 of a secret, hex: how one-time codes and tokens are stored (never the secret itself). */
export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * A 256-bit key for `sealSecret`, derived from a master key (an operator's setting or a random key kept
 * by the server) and a purpose, so one master key never encrypts two kinds of secret with the same key.
 */
export function deriveSealingKey(master: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, 'parla-sealed-secrets', purpose, 32));
}

/**
 * Encrypts a secret the server must use again later (a webhook's signing secret: a hash cannot sign),
 * with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url. Each call uses a fresh IV.
 */
export function sealSecret(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Decrypts what `sealSecret` made with the same key; throws if it was altered or the key differs. */
export function openSecret(sealed: string, key: Buffer): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}
