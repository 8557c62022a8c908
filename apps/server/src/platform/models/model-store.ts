/**
 * The model store's availability registry (issue 27 item 1): which models of the catalogue are on disk,
 * whole and unaltered, and why the others are not. The server checks every model at start (before the
 * engine children start, so they find the stamps), logs a warning for each unavailable one, and serves the
 * state in `/health` and `GET /v1/model-files`. An engine asks for its files with `modelFiles(id)` and
 * never loads a model that answers unavailable; everything else keeps working without it.
 */
import path from 'node:path';
import { catalogueEntry, MODEL_CATALOGUE, type ModelEntry, type ModelId, modelSize } from './model-catalogue';
import { checkFile, describeProblems, type FileCheck, VerifiedStamps } from './model-check';
import { modelsDir } from './models-dir';

export interface ModelStatus {
  id: ModelId;
  entry: ModelEntry;
  available: boolean;
  /** Why it is unavailable (missing file, partial download, wrong size, checksum mismatch); null when available. */
  reason: string | null;
  /** Every file's check, problems included. */
  files: FileCheck[];
  sizeBytes: number;
}

/** What an engine gets for a model: its files' absolute paths by their catalogue path, or why not. */
export type ModelFiles =
  | { available: true; dir: string; files: Readonly<Record<string, string>> }
  | { available: false; reason: string };

/** What a caller needs to know of the store: a model's state (a test's fake engines answer "available"). */
export interface ModelAvailability {
  status(id: ModelId): { available: boolean; reason: string | null };
}

export class ModelStore implements ModelAvailability {
  private readonly known = new Map<ModelId, ModelStatus>();

  constructor(
    readonly dir: string,
    readonly catalogue: readonly ModelEntry[] = MODEL_CATALOGUE,
  ) {}

  /**
   * Checks models (all by default) and remembers the result. `full` hashes every byte (the admin's
   * verify); otherwise a stamp that vouches for an unchanged file spares its hashing.
   */
  check(options: { full?: boolean; ids?: readonly ModelId[] } = {}): ModelStatus[] {
    const stamps = new VerifiedStamps(this.dir);
    const entries = options.ids
      ? options.ids.map((id) => catalogueEntry(id, this.catalogue))
      : this.catalogue;
    // A file two models share (Moonshine's tokens) is checked once per call.
    const seen = new Map<string, FileCheck>();
    const statuses = entries.map((entry) => {
      const files = entry.files.map((file) => {
        const known = seen.get(file.path);
        if (known) return known;
        const checked = checkFile(this.dir, file, stamps, options.full ?? false);
        seen.set(file.path, checked);
        return checked;
      });
      const reason = describeProblems(files, entry.files.length);
      const status: ModelStatus = {
        id: entry.id,
        entry,
        available: reason === '',
        reason: reason === '' ? null : reason,
        files,
        sizeBytes: modelSize(entry),
      };
      this.known.set(entry.id, status);
      return status;
    });
    stamps.save();
    return statuses;
  }

  /** A model's state: as last checked, or checked now. */
  status(id: ModelId): ModelStatus {
    const known = this.known.get(id);
    if (known) return known;
    const [checked] = this.check({ ids: [id] });
    if (!checked) throw new Error(`The model catalogue has no entry ${id}.`);
    return checked;
  }

  /** Every model's state, in the catalogue's order. */
  list(): ModelStatus[] {
    return this.catalogue.map((entry) => this.status(entry.id));
  }

  /** The files of an available model, or the reason it is unavailable. */
  modelFiles(id: ModelId): ModelFiles {
    const status = this.status(id);
    if (!status.available) return { available: false, reason: `${id} is unavailable: ${status.reason}` };
    const files: Record<string, string> = {};
    for (const file of status.entry.files) files[file.path] = path.join(this.dir, file.path);
    return { available: true, dir: this.dir, files };
  }
}

/** A model an engine needs is unavailable: the request fails with why, and the model is never loaded. */
export class ModelUnavailableError extends Error {
  constructor(
    readonly modelId: ModelId,
    readonly reason: string,
  ) {
    super(`${modelId} is unavailable: ${reason}`);
    this.name = 'ModelUnavailableError';
  }
}

let processStore: ModelStore | undefined;

/** This process's store, on MODELS_DIR (the server's and each engine child's). */
export function modelStore(): ModelStore {
  processStore ??= new ModelStore(modelsDir());
  return processStore;
}

/**
 * The front door for engines: the files of a model (absolute paths keyed by their path under MODELS_DIR,
 * e.g. `files['kokoro-82m/model.onnx']`), or why it is unavailable. In an engine child the first call
 * checks that model (sizes and the server's stamps: no hashing when the server verified it at start).
 */
export function modelFiles(id: ModelId): ModelFiles {
  return modelStore().modelFiles(id);
}

/** Throws a ModelUnavailableError with the reason when a model is unavailable in this process's store. */
export function assertModelAvailable(id: ModelId): void {
  const status = modelStore().status(id);
  if (!status.available) throw new ModelUnavailableError(id, status.reason ?? 'unavailable');
}

/** The path of one file of an available model; throws a ModelUnavailableError when the model is unavailable. */
export function requireModelFile(id: ModelId, file: string): string {
  assertModelAvailable(id);
  const found = modelFiles(id);
  if (!found.available) throw new ModelUnavailableError(id, found.reason);
  const resolved = found.files[file];
  if (!resolved) throw new Error(`The model ${id} has no file ${file} in the catalogue.`);
  return resolved;
}
