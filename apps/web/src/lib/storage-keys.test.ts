import { afterEach, describe, expect, it } from 'vitest';
import { appStoragePrefix, clearAppStorage, readStorage, storageKeys, writeStorage } from './storage-keys';

afterEach(() => localStorage.clear());

describe('storage keys (accounts §9)', () => {
  it('all start with xi:', () => {
    for (const key of Object.values(storageKeys)) expect(key.startsWith(appStoragePrefix)).toBe(true);
  });

  it('reads and writes through localStorage', () => {
    expect(readStorage(storageKeys.theme)).toBeNull();
    writeStorage(storageKeys.theme, 'dark');
    expect(localStorage.getItem('xi:theme')).toBe('dark');
    expect(readStorage(storageKeys.theme)).toBe('dark');
  });

  it('clearAppStorage removes every xi: key and nothing else (accounts §4 sign-out)', () => {
    localStorage.setItem('xi:theme', 'dark');
    localStorage.setItem('xi:invite-code', 'abc');
    localStorage.setItem('xi:billing-period', 'yearly');
    localStorage.setItem('other-app', 'keep');
    localStorage.setItem('xi', 'keep too');
    expect(clearAppStorage().sort()).toEqual(['xi:billing-period', 'xi:invite-code', 'xi:theme']);
    expect(localStorage.length).toBe(2);
    expect(localStorage.getItem('other-app')).toBe('keep');
    expect(localStorage.getItem('xi')).toBe('keep too');
  });

  it('clearAppStorage leaves the keys it is told to keep', () => {
    localStorage.setItem('xi:theme', 'dark');
    localStorage.setItem('xi:invite-code', 'abc');
    expect(clearAppStorage([storageKeys.theme])).toEqual(['xi:invite-code']);
    expect(localStorage.getItem('xi:theme')).toBe('dark');
    expect(localStorage.getItem('xi:invite-code')).toBeNull();
  });

  it('survives a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    } as unknown as Storage;
    expect(readStorage(storageKeys.theme, broken)).toBeNull();
    expect(() => writeStorage(storageKeys.theme, 'dark', broken)).not.toThrow();
  });
});
