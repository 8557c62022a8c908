/**
 * A transcript laid out for reading: what the html, docx and pdf exports print, each in its own way
 * (transcript-formats.ts builds it, docx-writer.ts and pdf-writer.ts write it).
 */
export interface TranscriptDocument {
  title: string;
  /** One line under the title: language, duration, speakers. */
  details: string;
  /** The transcript's language code (ISO 639-1 or 639-3), for the html's `lang`. */
  languageCode?: string;
  paragraphs: TranscriptParagraph[];
}

/** One segment: `[00:01:02] Alice: text`, the time and speaker only when the export asks for them. */
export interface TranscriptParagraph {
  time?: string;
  speaker?: string;
  text: string;
}

/** XML 1.0 text or attribute value (the html, the docx's XML). The text is already free of control characters. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
