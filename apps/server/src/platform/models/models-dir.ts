import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the model files are: MODELS_DIR, else the repository's `vendor/models` (found upwards from this
 * file, in the source and in a build). The engine children resolve it too, and they have no config of
 * their own, so this reads the environment itself (as `STT_THREADS` is read in the engine thread); the
 * children inherit the server's environment, so both find the same folder.
 */
export function modelsDir(): string {
  if (process.env.MODELS_DIR) return path.resolve(process.env.MODELS_DIR);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'vendor', 'models');
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // No vendor/models yet (a fresh clone before its first fetch): the repository root's, found by its
  // package-lock.json, else the working directory's.
  dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package-lock.json'))) return path.join(dir, 'vendor', 'models');
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('vendor/models');
    dir = parent;
  }
}
