/**
 * A Kokoro voice that is a weighted blend of style vectors (issue 27 item 5: designed voices and instant
 * clones on Kokoro), written in a rendition's `voice` string: `af_heart*0.6+bf_emma*0.4`. A plain name
 * (`af_heart`) is a blend of one. The weights are normalised to sum to 1; the language (and so the
 * phonemizer) is the first voice's (its name's first letter, as for a single voice).
 */

export interface KokoroBlendPart {
  /** A Kokoro voice name: its style file (`af_heart`). */
  voice: string;
  /** Its share of the blend, 0–1; the parts' shares sum to 1. */
  weight: number;
}

/** The most voices one blend mixes: enough for a designed voice, few enough to read at a glance. */
export const KOKORO_BLEND_MAX_PARTS = 4;

const VOICE_NAME = /^[a-z]{2}_[a-z]+$/;
const WEIGHT = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The parts of a blend, weights normalised; throws an Error saying what is wrong with a bad one (an
 * unknown form of name, a weight that is not a positive number, a voice named twice, too many parts).
 * Whether each named voice exists is the engine's to check (its style file).
 */
export function parseKokoroBlend(spec: string): KokoroBlendPart[] {
  const pieces = spec.split('+');
  if (pieces.length > KOKORO_BLEND_MAX_PARTS)
    throw new Error(
      `The Kokoro blend "${spec}" mixes ${pieces.length} voices; at most ${KOKORO_BLEND_MAX_PARTS} may be blended.`,
    );
  const parts = pieces.map((piece) => {
    const [voice = '', weightText, extra] = piece.trim().split('*');
    if (!VOICE_NAME.test(voice) || extra !== undefined)
      throw new Error(
        `The Kokoro blend "${spec}" has "${piece}", which is not a voice name with an optional weight (af_heart*0.6).`,
      );
    const weight = weightText === undefined ? 1 : WEIGHT.test(weightText) ? Number(weightText) : Number.NaN;
    if (!Number.isFinite(weight) || weight <= 0)
      throw new Error(
        `The Kokoro blend "${spec}" gives ${voice} the weight "${weightText}": a weight is a number above 0.`,
      );
    return { voice, weight };
  });
  const names = new Set(parts.map((p) => p.voice));
  if (names.size !== parts.length) throw new Error(`The Kokoro blend "${spec}" names a voice twice.`);
  const total = parts.reduce((sum, p) => sum + p.weight, 0);
  return parts.map((p) => ({ voice: p.voice, weight: p.weight / total }));
}

/**
 * A blend's notation, weights rounded to 3 decimals (parts that round to 0 dropped): one voice is written
 * as its plain name, so a blend of one speaks exactly as that premade voice does.
 */
export function formatKokoroBlend(parts: readonly KokoroBlendPart[]): string {
  const kept = parts.filter((p) => Math.round(p.weight * 1000) > 0);
  if (kept.length === 1) return (kept[0] as KokoroBlendPart).voice;
  const total = kept.reduce((sum, p) => sum + p.weight, 0);
  return kept.map((p) => `${p.voice}*${Math.round((p.weight / total) * 1000) / 1000}`).join('+');
}

/** Whether a Kokoro `voice` string is a blend of more than one voice. */
export function isKokoroBlend(voice: string): boolean {
  return voice.includes('+') || voice.includes('*');
}
