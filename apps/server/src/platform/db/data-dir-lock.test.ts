import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-lock-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('lockDataDir', () => {
  it('is exclusive while held, and free again once released', () => {
    const dir = path.join(root, 'a');
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'parla.pid'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'parla.pid'))).toBe(false);
    lockDataDir(dir)();
  });

  it('refuses a folder a live process holds, naming that process', async () => {
    const dir = path.join(root, 'b');
    fs.mkdirSync(dir);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      fs.writeFileSync(path.join(dir, 'parla.pid'), String(holder.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(`pid ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a lock whose process has died', async () => {
    const dir = path.join(root, 'c');
    fs.mkdirSync(dir);
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.once('exit', r));
    fs.writeFileSync(path.join(dir, 'parla.pid'), String(dead.pid));
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'parla.pid'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
