/**
 * `npm run bench`: runs every bench/*.bench.ts in turn. Each prints its figures and its ratio against
 * a baseline measured in the same run, so the numbers compare like with like on this machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = import.meta.dirname;
const only = process.argv[2];
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
for (const file of files) {
  console.log(`\n# ${file}`);
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { run: () => Promise<void> };
  await mod.run();
}
// Long-lived engine processes some benches start (Festival's, in the program host) would keep it running.
process.exit(process.exitCode ?? 0);
