import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The entry of the server's child processes (engine children, the program host): the TypeScript source
 * under tsx, the bundled file in a build.
 */
export function childEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts'))
    return { file: path.join(path.dirname(here), 'engine-child.ts'), execArgv: ['--import', 'tsx'] };
  const bundled = path.join(path.dirname(here), 'engine-child.js');
  if (!fs.existsSync(bundled)) throw new Error(`Engine child entry not found at ${bundled}`);
  return { file: bundled, execArgv: [] };
}
