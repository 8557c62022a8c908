import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the OWASP-recommended cost (19 MiB memory, 2 passes, 1 lane), ~10 ms per hash here
 * (research/engines-feasibility.md §7). `algorithm: 2` is Algorithm.Argon2id, a const enum the
 * package's types declare but isolated modules cannot import.
 */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password (the PHC string carries salt and parameters). */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'), ARGON2ID);
}

/** Checks a password against a stored hash; a malformed hash is a mismatch, never an exception. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password.normalize('NFC'));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash and returns false: sign-in calls this when no account has the email,
 * so a wrong email costs the same time as a wrong password and timing does not reveal who has an account.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('parla-no-such-account');
  await verifyPassword(await dummyHash, password);
  return false;
}
