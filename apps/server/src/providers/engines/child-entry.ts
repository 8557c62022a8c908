import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

let childBundle: string | undefined;

/**
 * Starts this process's children from a bundle of the child entry (the test legs make one per run, in
 * test/global-setup.ts): under tsx each child and each engine thread compiles the source again, about
 * 0.7 s of CPU each, for every test file.
 */
export function useChildBundle(file: string): void {
  childBundle = file;
}

/**
 * The entry of the server's child processes (engine children, the program host): the TypeScript source
 * under tsx, the bundled file in a build.
 */
export function childEntry(): { file: string; execArgv: string[] } {
  if (childBundle) return { file: childBundle, execArgv: [] };
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts'))
    return { file: path.join(path.dirname(here), 'engine-child.ts'), execArgv: ['--import', 'tsx'] };
  const bundled = path.join(path.dirname(here), 'engine-child.js');
  if (!fs.existsSync(bundled)) throw new Error(`Engine child entry not found at ${bundled}`);
  return { file: bundled, execArgv: [] };
}

/**
 * A thread running the child entry with `workerData` (which says what the thread is for). Under tsx
 * (source, tests) the thread registers tsx before it loads the TypeScript entry.
 */
export function childWorker(workerData: unknown): Worker {
  const entry = childEntry();
  return entry.execArgv.length > 0
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(entry.file).href)}); });`,
        { eval: true, workerData },
      )
    : new Worker(entry.file, { workerData });
}
