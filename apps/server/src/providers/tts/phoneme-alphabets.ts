/*
 * Pronunciations between the alphabets the engines read (issue 30, research-30 §1): a pronunciation-dictionary
 * phoneme rule or a `<phoneme>` tag is IPA or CMU ARPAbet; the engines take eSpeak's IPA (Kokoro, Piper),
 * eSpeak's ASCII mnemonics (eSpeak's `[[…]]`) or ARPAbet (flite's lexicon addenda, Festival's lexicon). No
 * package in node_modules converts them (research §1 "CMU Arpabet ↔ IPA"); these tables are small.
 *
 * One convention throughout: a stress mark stands just before the stressed syllable's vowel, as eSpeak
 * writes it (`təmˈɑːtoʊ`) and as Kokoro and Piper were trained to read it; IPA dictionaries put it before
 * the syllable (`təˈmɑːtoʊ`), so `ipaPhones` moves it.
 */

/** One phoneme of a pronunciation: its stress (vowels only), its IPA symbol(s), and whether it is long. */
export interface IpaPhone {
  stress: '' | 'ˈ' | 'ˌ';
  core: string;
  long: boolean;
}

/** The IPA vowel letters: a phone whose first letter is one of these is a syllable's vowel. */
const VOWELS = new Set([...'aeiouyæɑɐɒɔəɘɛɜɝɚɞɨɪʉʊʌʏøœɤɯɶᵻ']);

/** Phonemes written with two letters, as one phone (longest first when looked up). */
const UNITS = ['tʃ', 'dʒ', 'ts', 'dz', 'aɪ', 'aʊ', 'eɪ', 'oʊ', 'əʊ', 'ɔɪ', 'eə', 'ɪə', 'ʊə', 'ɛə'];

/** Whether a phone is a vowel (it carries a syllable's stress). */
export function isVowel(phone: Pick<IpaPhone, 'core'>): boolean {
  return VOWELS.has(phone.core[0] ?? '');
}

/**
 * An IPA pronunciation cut into words of phones: slashes, brackets, syllable dots and tie bars dropped,
 * `g` written as IPA's `ɡ` (as eSpeak writes it, and the neural models' vocabularies have it), each stress mark moved onto the next vowel (eSpeak's placement), a length mark
 * joined to the phone before it. Letters outside the tables stay phones of their own (the engines drop
 * the ones they cannot say).
 */
export function ipaPhones(ipa: string): IpaPhone[][] {
  const clean = ipa
    .normalize('NFC')
    .replace(/[/[\]().‿ˑ]/g, '')
    // Tie bars (t͡ʃ): the two-letter phonemes are known without them.
    .replace(/\u0361|\u035C/g, '')
    .replace(/g/g, 'ɡ')
    .replace(/:/g, 'ː')
    .replace(/'/g, 'ˈ');
  const words: IpaPhone[][] = [];
  for (const word of clean.split(/[\s-]+/).filter((w) => w.length > 0)) {
    const phones: IpaPhone[] = [];
    let pending: '' | 'ˈ' | 'ˌ' = '';
    let i = 0;
    while (i < word.length) {
      const char = word[i] as string;
      if (char === 'ˈ' || char === 'ˌ') {
        pending = char;
        i += 1;
        continue;
      }
      if (char === 'ː') {
        const last = phones.at(-1);
        if (last) last.long = true;
        i += 1;
        continue;
      }
      const unit = UNITS.find((u) => word.startsWith(u, i));
      let core = unit ?? char;
      i += core.length;
      // Combining marks (syllabic, nasal, dental…) stay with their letter.
      while (i < word.length && /\p{M}/u.test(word[i] as string)) core += word[i++];
      const phone: IpaPhone = { stress: '', core, long: false };
      if (pending && isVowel(phone)) {
        phone.stress = pending;
        pending = '';
      }
      phones.push(phone);
    }
    if (phones.length > 0) words.push(phones);
  }
  return words;
}

/** Phones back to IPA (stress before the vowel, as eSpeak writes it). */
export function phonesToIpa(words: readonly IpaPhone[][]): string {
  return words.map((w) => w.map((p) => `${p.stress}${p.core}${p.long ? 'ː' : ''}`).join('')).join(' ');
}

/** An IPA pronunciation in the one form the engines are given (see ipaPhones). */
export function normalizeIpa(ipa: string): string {
  return phonesToIpa(ipaPhones(ipa));
}

/**
 * CMU ARPAbet to IPA, the vowels as eSpeak's American English writes them (long marks included: Piper
 * reads them, Kokoro's tables drop them). Research-30 §1 "CMU Arpabet ↔ IPA", with the extended phones.
 */
const ARPABET_IPA: Record<string, string> = {
  AA: 'ɑː',
  AE: 'æ',
  AH: 'ʌ',
  AO: 'ɔː',
  AW: 'aʊ',
  AX: 'ə',
  AXR: 'ɚ',
  AY: 'aɪ',
  EH: 'ɛ',
  ER: 'ɜː',
  EY: 'eɪ',
  IH: 'ɪ',
  IX: 'ɪ',
  IY: 'iː',
  OW: 'oʊ',
  OY: 'ɔɪ',
  UH: 'ʊ',
  UW: 'uː',
  UX: 'uː',
  B: 'b',
  CH: 'tʃ',
  D: 'd',
  DH: 'ð',
  DX: 'ɾ',
  EL: 'əl',
  EM: 'əm',
  EN: 'ən',
  F: 'f',
  G: 'ɡ',
  HH: 'h',
  JH: 'dʒ',
  K: 'k',
  L: 'l',
  M: 'm',
  N: 'n',
  NG: 'ŋ',
  NX: 'ɾ',
  P: 'p',
  Q: 'ʔ',
  R: 'ɹ',
  S: 's',
  SH: 'ʃ',
  T: 't',
  TH: 'θ',
  V: 'v',
  W: 'w',
  WH: 'w',
  Y: 'j',
  Z: 'z',
  ZH: 'ʒ',
};

/** Thrown for a phone that is not CMU ARPAbet (checked where rules are accepted, so rarely seen). */
export class PronunciationAlphabetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PronunciationAlphabetError';
  }
}

/**
 * A CMU ARPAbet pronunciation (`T AH0 M AA1 T OW0`, any case) as IPA (`təmˈɑːtoʊ`): stress 1 → ˈ and
 * 2 → ˌ before the vowel; unstressed AH (AH0) is ə and unstressed ER (ER0) is ɚ, as in the CMU dictionary.
 */
export function arpabetToIpa(arpabet: string): string {
  return arpabet
    .trim()
    .split(/\s+/)
    .filter((p) => p.length > 0)
    .map((phone) => {
      const match = /^([A-Za-z]+)([012])?$/.exec(phone);
      const name = match?.[1]?.toUpperCase() ?? '';
      const digit = match?.[2];
      const ipa =
        name === 'AH' && digit === '0' ? 'ə' : name === 'ER' && digit === '0' ? 'ɚ' : ARPABET_IPA[name];
      if (ipa === undefined) throw new PronunciationAlphabetError(`"${phone}" is not a CMU ARPAbet phone.`);
      return `${digit === '1' ? 'ˈ' : digit === '2' ? 'ˌ' : ''}${ipa}`;
    })
    .join('');
}

/** A rule's or tag's pronunciation as IPA, whichever alphabet it is written in. */
export function pronunciationIpa(phoneme: string, alphabet: string): string {
  return normalizeIpa(alphabet.toLowerCase() === 'cmu-arpabet' ? arpabetToIpa(phoneme) : phoneme);
}

/**
 * IPA to eSpeak NG's ASCII phoneme mnemonics for English (what `[[…]]` reads; eSpeak takes no IPA), as
 * measured with `espeak-ng -v en-us -q --ipa "[[X]]"` for each (research-30 §1 table).
 */
const IPA_ESPEAK: Record<string, string> = {
  p: 'p',
  b: 'b',
  t: 't',
  d: 'd',
  k: 'k',
  ɡ: 'g',
  f: 'f',
  v: 'v',
  θ: 'T',
  ð: 'D',
  s: 's',
  z: 'z',
  ʃ: 'S',
  ʒ: 'Z',
  h: 'h',
  tʃ: 'tS',
  dʒ: 'dZ',
  ts: 'ts',
  dz: 'dz',
  m: 'm',
  n: 'n',
  ŋ: 'N',
  l: 'l',
  ɹ: 'r',
  r: 'r',
  w: 'w',
  j: 'j',
  ɾ: 't',
  ʔ: 't',
  x: 'x',
  i: 'i',
  iː: 'i:',
  ɪ: 'I',
  ɨ: 'I',
  ᵻ: 'I',
  e: 'e',
  eɪ: 'eI',
  ɛ: 'E',
  æ: 'a',
  a: 'a',
  aɪ: 'aI',
  aʊ: 'aU',
  ɔɪ: 'OI',
  ɑ: 'A:',
  ɑː: 'A:',
  ɒ: '0',
  ɔ: 'O:',
  ɔː: 'O:',
  o: 'oU',
  oː: 'oU',
  oʊ: 'oU',
  əʊ: 'oU',
  ʊ: 'U',
  u: 'u:',
  uː: 'u:',
  ʌ: 'V',
  ɜ: '3:',
  ɜː: '3:',
  ɝ: '3:',
  ɚ: '3',
  ə: '@',
  ɐ: 'a#',
  eə: 'e@',
  ɛə: 'e@',
  ɪə: 'i@',
  ʊə: 'U@',
};

/** IPA as eSpeak NG's mnemonics (`təˈmɑːtoʊ` → `t@m'A:toU`); phones it has no mnemonic for are left out. */
export function ipaToESpeak(ipa: string): string {
  return ipaPhones(ipa)
    .map((word) =>
      word
        .map((phone) => {
          const mnemonic =
            IPA_ESPEAK[`${phone.core}${phone.long ? 'ː' : ''}`] ??
            IPA_ESPEAK[phone.core] ??
            IPA_ESPEAK[phone.core.replace(/\p{M}/gu, '')];
          if (mnemonic === undefined) return '';
          return `${phone.stress === 'ˈ' ? "'" : phone.stress === 'ˌ' ? ',' : ''}${mnemonic}`;
        })
        .join(''),
    )
    .filter((w) => w.length > 0)
    .join(' ');
}

/**
 * IPA to the lower-case ARPAbet of flite's cmulex and Festival's radio phoneset (vowels without a digit;
 * `ipaToArpabet` adds stress). Unstressed schwa is `ax`, stressed `ah`, as both lexicons write them.
 */
const IPA_ARPABET: Record<string, string[]> = {
  p: ['p'],
  b: ['b'],
  t: ['t'],
  d: ['d'],
  k: ['k'],
  ɡ: ['g'],
  f: ['f'],
  v: ['v'],
  θ: ['th'],
  ð: ['dh'],
  s: ['s'],
  z: ['z'],
  ʃ: ['sh'],
  ʒ: ['zh'],
  h: ['hh'],
  tʃ: ['ch'],
  dʒ: ['jh'],
  ts: ['t', 's'],
  dz: ['d', 'z'],
  m: ['m'],
  n: ['n'],
  ŋ: ['ng'],
  l: ['l'],
  ɹ: ['r'],
  r: ['r'],
  w: ['w'],
  j: ['y'],
  ɾ: ['t'],
  ʔ: ['t'],
  x: ['k'],
  i: ['iy'],
  ɪ: ['ih'],
  ɨ: ['ih'],
  ᵻ: ['ih'],
  e: ['ey'],
  eɪ: ['ey'],
  ɛ: ['eh'],
  æ: ['ae'],
  a: ['aa'],
  aɪ: ['ay'],
  aʊ: ['aw'],
  ɔɪ: ['oy'],
  ɑ: ['aa'],
  ɒ: ['aa'],
  ɔ: ['ao'],
  o: ['ow'],
  oʊ: ['ow'],
  əʊ: ['ow'],
  ʊ: ['uh'],
  u: ['uw'],
  ʌ: ['ah'],
  ɜ: ['er'],
  ɝ: ['er'],
  ɚ: ['er'],
  ə: ['ax'],
  ɐ: ['ax'],
  eə: ['eh', 'r'],
  ɛə: ['eh', 'r'],
  ɪə: ['ih', 'r'],
  ʊə: ['uh', 'r'],
};

/** The ARPAbet vowels (the ones that carry a stress digit and make a syllable). */
const ARPABET_VOWELS = new Set([
  'aa',
  'ae',
  'ah',
  'ao',
  'aw',
  'ax',
  'ay',
  'eh',
  'er',
  'ey',
  'ih',
  'iy',
  'ow',
  'oy',
  'uh',
  'uw',
]);

/** An ARPAbet phone with its stress (vowels: 0, 1 primary, 2 secondary; consonants undefined). */
export interface ArpabetPhone {
  phone: string;
  stress?: 0 | 1 | 2;
}

/**
 * IPA as ARPAbet phones for flite and Festival (`təˈmɑːtoʊ` → t ax0 m aa1 t ow0); a stressed schwa is
 * `ah`. Phones with no ARPAbet counterpart are left out.
 */
export function ipaToArpabet(ipa: string): ArpabetPhone[] {
  const out: ArpabetPhone[] = [];
  for (const word of ipaPhones(ipa)) {
    for (const phone of word) {
      const core = phone.core.replace(/\p{M}/gu, '');
      let phones = IPA_ARPABET[phone.core] ?? IPA_ARPABET[core];
      if (!phones) continue;
      const stress = phone.stress === 'ˈ' ? 1 : phone.stress === 'ˌ' ? 2 : 0;
      if (phones[0] === 'ax' && stress > 0) phones = ['ah'];
      phones.forEach((name, k) => {
        out.push(ARPABET_VOWELS.has(name) ? { phone: name, stress: k === 0 ? stress : 0 } : { phone: name });
      });
    }
  }
  return out;
}

/** flite's addenda form of a pronunciation: `t ax0 m aa1 t ow0`. */
export function fliteLexPhones(ipa: string): string {
  return ipaToArpabet(ipa)
    .map((p) => (p.stress === undefined ? p.phone : `${p.phone}${p.stress}`))
    .join(' ');
}

/**
 * Festival's lexicon syllables of a pronunciation, `(((t ax) 0) ((m aa) 1) ((t ow) 0))`: one syllable per
 * vowel, each consonant run between two vowels split before its last consonant (a single consonant
 * starts the next syllable), stress 1 for a primary or secondary stressed vowel (the radio lexicon's 0/1).
 * Empty when no phone of the pronunciation has an ARPAbet counterpart.
 */
export function festivalSyllables(ipa: string): string {
  const phones = ipaToArpabet(ipa);
  if (phones.length === 0) return '';
  const vowels = phones.flatMap((p, i) => (p.stress !== undefined ? [i] : []));
  if (vowels.length === 0) return `(((${phones.map((p) => p.phone).join(' ')}) 0))`;
  const syllables: string[] = [];
  let start = 0;
  vowels.forEach((v, k) => {
    const next = vowels[k + 1];
    // The consonants after this vowel up to the next: all but the last stay with this syllable.
    const end = next === undefined ? phones.length : Math.max(v + 1, next - 1);
    const stress = (phones[v]?.stress ?? 0) > 0 ? 1 : 0;
    syllables.push(
      `((${phones
        .slice(start, end)
        .map((p) => p.phone)
        .join(' ')}) ${stress})`,
    );
    start = end;
  });
  return `(${syllables.join(' ')})`;
}
