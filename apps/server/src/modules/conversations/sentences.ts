/*
 * Cutting a streamed answer into what is spoken (issue 28 item 2: "sentences to TTS as they complete"):
 * the language model's text arrives a few characters at a time, and each sentence goes to speech as soon
 * as its end is seen, so the first audio waits for the first sentence, not the whole answer. The first
 * piece is cut sooner for a quicker first audio: at a comma or dash past FIRST_PIECE_MIN characters while
 * the sentence streams in, and a complete first sentence where the TTS stream cuts it (`firstPieceLength`:
 * its first clause or first five words), so Kokoro, which speaks a piece whole, starts on a short one.
 */
import { firstPieceLength } from '../tts';

/** A first piece shorter than this is not cut at a comma (a too-short piece sounds clipped). */
const FIRST_PIECE_MIN = 24;
/** A sentence longer than this is cut at its last comma or space before it (an engine's text bound). */
const MAX_PIECE = 400;

/** Where a complete sentence ends in `text` (after its terminal punctuation and closing quotes), or -1. */
function sentenceEnd(text: string): number {
  const match = /[.!?…。！？]+["'”’)\]]*(?=\s)|\n+/u.exec(text);
  return match ? match.index + match[0].length : -1;
}

/** Where the first sentence, `text.slice(0, end)`, is cut: its first piece's end (or `end`, whole). */
function firstCut(text: string, end: number): number {
  const sentence = text.slice(0, end);
  const lead = sentence.length - sentence.trimStart().length;
  return lead + firstPieceLength(sentence.trimStart());
}

export class SentenceCutter {
  private buffer = '';
  private pieces = 0;

  /** Adds streamed text; answers the pieces now complete, in order. */
  push(delta: string): string[] {
    this.buffer += delta;
    const out: string[] = [];
    for (;;) {
      let end = sentenceEnd(this.buffer);
      if (this.pieces === 0) {
        // The first piece ends at the first comma past FIRST_PIECE_MIN when that comes before the stop.
        const comma = /[,;:—–]\s/u.exec(this.buffer.slice(FIRST_PIECE_MIN));
        const at = comma ? FIRST_PIECE_MIN + comma.index + 1 : -1;
        if (at > 0 && (end < 0 || at < end)) end = at;
        else if (end > 0) end = firstCut(this.buffer, end);
      }
      if (end < 0 && this.buffer.length > MAX_PIECE) {
        const cut = this.buffer.lastIndexOf(' ', MAX_PIECE);
        end = cut > 0 ? cut : MAX_PIECE;
      }
      if (end < 0) break;
      const piece = this.buffer.slice(0, end).trim();
      this.buffer = this.buffer.slice(end);
      if (piece) {
        out.push(piece);
        this.pieces += 1;
      }
    }
    return out;
  }

  /** The rest, once the stream ended. */
  flush(): string[] {
    const rest = this.buffer.trim();
    this.buffer = '';
    if (!rest) return [];
    if (this.pieces === 0) {
      const cut = firstCut(rest, rest.length);
      if (cut < rest.length) {
        this.pieces += 2;
        return [rest.slice(0, cut).trim(), rest.slice(cut).trim()];
      }
    }
    this.pieces += 1;
    return [rest];
  }
}
