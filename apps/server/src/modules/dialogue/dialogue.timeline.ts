import type { CharacterAlignment } from '@parla/audio';
import type { VoiceSegment } from '@parla/contracts';

/** One line as spoken, at the dialogue's sample rate; alignment times from the line's own start. */
export interface SpokenLine {
  voiceId: string;
  samples: Int16Array;
  alignment: CharacterAlignment;
  normalizedAlignment: CharacterAlignment;
}

/**
 * A line placed in the dialogue: the pause before it (none for the first) and its samples, its characters
 * on the dialogue's clock — preceded by the "\n" that joins it to the line before, which spans the pause —
 * and its voice segment.
 */
export interface DialogueChunk {
  sampleRate: number;
  samples: Int16Array;
  alignment: CharacterAlignment;
  normalizedAlignment: CharacterAlignment;
  segment: VoiceSegment;
}

const emptyAlignment = (): CharacterAlignment => ({
  characters: [],
  character_start_times_seconds: [],
  character_end_times_seconds: [],
});

/** Seconds as the alignments give them: to the millisecond. */
const seconds = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Lays lines end to end, in order, with `pauseMs` of silence between two lines (a short natural pause at a
 * change of turn). Character indexes count in `alignment.characters` of the lines joined by "\n" — the
 * history item's text — so a segment's [character_start_index, character_end_index) is its line there.
 */
export class DialogueTimeline {
  private samplesSoFar = 0;
  private charactersSoFar = 0;
  private lines = 0;

  constructor(
    readonly sampleRate: number,
    private readonly pauseMs: number,
  ) {}

  /** Places the next line (`index` in the request's inputs) after the ones placed so far. */
  add(line: SpokenLine, index: number): DialogueChunk {
    const pauseSamples = this.lines > 0 ? Math.round((this.pauseMs * this.sampleRate) / 1000) : 0;
    const pauseStart = this.samplesSoFar / this.sampleRate;
    const start = (this.samplesSoFar + pauseSamples) / this.sampleRate;
    const end = start + line.samples.length / this.sampleRate;
    const samples = new Int16Array(pauseSamples + line.samples.length);
    samples.set(line.samples, pauseSamples);

    const shift = (source: CharacterAlignment): CharacterAlignment => {
      const out = emptyAlignment();
      if (this.lines > 0) {
        out.characters.push('\n');
        out.character_start_times_seconds.push(seconds(pauseStart));
        out.character_end_times_seconds.push(seconds(start));
      }
      out.characters.push(...source.characters);
      for (const t of source.character_start_times_seconds)
        out.character_start_times_seconds.push(seconds(start + t));
      for (const t of source.character_end_times_seconds)
        out.character_end_times_seconds.push(seconds(start + t));
      return out;
    };
    const alignment = shift(line.alignment);
    const normalizedAlignment = shift(line.normalizedAlignment);
    const firstCharacter = this.charactersSoFar + (this.lines > 0 ? 1 : 0);
    const segment: VoiceSegment = {
      voice_id: line.voiceId,
      start_time_seconds: seconds(start),
      end_time_seconds: seconds(end),
      character_start_index: firstCharacter,
      character_end_index: firstCharacter + line.alignment.characters.length,
      dialogue_input_index: index,
    };
    this.samplesSoFar += samples.length;
    this.charactersSoFar += alignment.characters.length;
    this.lines += 1;
    return { sampleRate: this.sampleRate, samples, alignment, normalizedAlignment, segment };
  }
}

/** The whole dialogue from its chunks, in order: one audio, one alignment of each kind, the segments. */
export function joinChunks(chunks: readonly DialogueChunk[]): {
  samples: Int16Array;
  alignment: CharacterAlignment;
  normalizedAlignment: CharacterAlignment;
  voiceSegments: VoiceSegment[];
} {
  const samples = new Int16Array(chunks.reduce((sum, c) => sum + c.samples.length, 0));
  let offset = 0;
  const alignment = emptyAlignment();
  const normalizedAlignment = emptyAlignment();
  const append = (to: CharacterAlignment, from: CharacterAlignment) => {
    to.characters.push(...from.characters);
    to.character_start_times_seconds.push(...from.character_start_times_seconds);
    to.character_end_times_seconds.push(...from.character_end_times_seconds);
  };
  for (const chunk of chunks) {
    samples.set(chunk.samples, offset);
    offset += chunk.samples.length;
    append(alignment, chunk.alignment);
    append(normalizedAlignment, chunk.normalizedAlignment);
  }
  return { samples, alignment, normalizedAlignment, voiceSegments: chunks.map((c) => c.segment) };
}
