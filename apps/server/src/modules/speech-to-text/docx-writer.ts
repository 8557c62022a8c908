import { zipSync } from 'fflate';
import { escapeXml, type TranscriptDocument, type TranscriptParagraph } from './transcript-document';

/**
 * A transcript as a Word document (Office Open XML, ECMA-376): the three parts a WordprocessingML package
 * needs — `[Content_Types].xml`, `_rels/.rels`, `word/document.xml` — in a ZIP of stored entries (fflate,
 * already the server's ZIP writer for history downloads). A paragraph per segment, the time in grey and
 * the speaker's name in bold; direct formatting only, so no styles part is needed. Word, LibreOffice and
 * Google Docs open it.
 */

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;

const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/** The entries' date: fixed, so the same transcript always gives the same bytes. */
const ENTRY_TIME = new Date(Date.UTC(2026, 0, 1));

/** A run of text; `preserve` keeps its leading and trailing spaces. */
function run(text: string, properties = ''): string {
  const rPr = properties ? `<w:rPr>${properties}</w:rPr>` : '';
  return `<w:r>${rPr}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
}

function paragraphXml(paragraph: TranscriptParagraph): string {
  const runs = [
    paragraph.time ? run(`[${paragraph.time}] `, '<w:color w:val="666666"/>') : '',
    paragraph.speaker ? run(`${paragraph.speaker}: `, '<w:b/>') : '',
    run(paragraph.text),
  ];
  return `<w:p><w:pPr><w:spacing w:after="160"/></w:pPr>${runs.join('')}</w:p>`;
}

/** `word/document.xml`: the title, the details line, a paragraph per segment, an A4 page with 2 cm margins. */
export function documentXml(document: TranscriptDocument): string {
  const body = [
    `<w:p><w:pPr><w:spacing w:after="120"/></w:pPr>${run(document.title, '<w:b/><w:sz w:val="36"/>')}</w:p>`,
    `<w:p><w:pPr><w:spacing w:after="360"/></w:pPr>${run(document.details, '<w:color w:val="666666"/><w:sz w:val="19"/>')}</w:p>`,
    ...document.paragraphs.map(paragraphXml),
    '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="709" w:footer="709" w:gutter="0"/></w:sectPr>',
  ];
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body.join('')}</w:body></w:document>`;
}

/** The .docx file's bytes. */
export function writeDocx(document: TranscriptDocument): Buffer {
  const encoder = new TextEncoder();
  const zip = zipSync(
    {
      '[Content_Types].xml': encoder.encode(CONTENT_TYPES),
      '_rels/.rels': encoder.encode(RELS),
      'word/document.xml': encoder.encode(documentXml(document)),
    },
    { level: 0, mtime: ENTRY_TIME },
  );
  return Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
}
