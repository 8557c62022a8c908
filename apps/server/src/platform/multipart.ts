import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from './errors';
import { findUnstorable, hasUnstorableCharacter, unstorableAt } from './request-strings';

/** The bounds of a multipart body besides its one file. */
const FIELD_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 24, headerPairs: 200 } as const;

/**
 * Lets the routes of one plugin scope take multipart/form-data (one file of at most `maxFileBytes`, a
 * few small fields). Registered per scope, not app-wide, so every other route keeps refusing it (415).
 */
export async function acceptMultipart(
  scope: FastifyInstance,
  maxFileBytes: number,
  maxFiles = 1,
  /** More or longer fields than the usual few small ones (Studio's repeated fields and content JSON). */
  fields: { fields?: number; fieldSize?: number } = {},
): Promise<void> {
  const fieldCount = fields.fields ?? FIELD_LIMITS.fields;
  await scope.register(multipart, {
    limits: {
      ...FIELD_LIMITS,
      fields: fieldCount,
      fieldSize: fields.fieldSize ?? FIELD_LIMITS.fieldSize,
      parts: fieldCount + 4 + maxFiles,
      files: maxFiles,
      fileSize: maxFileBytes,
    },
    // Limits break the request with an error rather than truncating the file silently.
    throwFileSizeLimit: true,
  });
}

export interface MultipartForm<T> {
  fields: T;
  /** The one file, or undefined when the form holds none under `fileField`. */
  file: UploadedFile | undefined;
  /** Every file under `fileField`, in the order sent (for scopes that accept several). */
  files: UploadedFile[];
}

export interface UploadedFile {
  bytes: Buffer;
  filename: string;
  mimetype: string;
}

/** A 422 `invalid_request` with the validator's item shape, at `['body', …path]`. */
function invalidBody(issues: z.core.$ZodIssue[]): AppError {
  const errors = issues.map((issue) => ({
    loc: ['body', ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    msg: issue.message,
    type: issue.code,
  }));
  const first = errors[0];
  return new AppError(
    'invalid_request',
    first ? `Invalid request: ${first.loc.join('.')}: ${first.msg}` : 'Invalid request.',
    { errors },
  );
}

/** @fastify/multipart's and busboy's failures as the API's errors (they carry a 4xx statusCode). */
function toRequestError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new AppError('payload_too_large', 'The uploaded file is too large.', { cause: error });
  if (code === 'FST_FILES_LIMIT')
    return new AppError('bad_request', 'Too many files in one request.', { cause: error });
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    return new AppError('unsupported_media_type', 'The request must be multipart/form-data.', {
      cause: error,
    });
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PROTO_VIOLATION')
    return new AppError('bad_request', 'The form has too many or malformed fields.', { cause: error });
  const status = (error as { statusCode?: number }).statusCode;
  if (error instanceof AppError || (status && status >= 500)) return error;
  // busboy's parse errors ("Unexpected end of form", "Malformed part header"…) and the rest.
  return new AppError('malformed_request', 'The multipart body could not be read.', { cause: error });
}

/**
 * Reads a multipart/form-data body: its one file under `fileField` into memory (the scope's limit bounds
 * it), and its text fields validated by `schema` (422 `invalid_request` at `body.<field>` like JSON
 * bodies). A malformed or oversized body is a clean 4xx.
 */
export async function readMultipartForm<S extends z.ZodType>(
  request: FastifyRequest,
  fileField: string,
  schema: S,
): Promise<MultipartForm<z.infer<S>>> {
  if (!request.isMultipart())
    throw new AppError('unsupported_media_type', 'The request must be multipart/form-data.');
  const raw: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        // `files` and `files[]` are one field (form libraries differ on the brackets).
        if (part.fieldname === fileField || part.fieldname === `${fileField}[]`)
          files.push({ bytes, filename: part.filename, mimetype: part.mimetype });
      } else if (part.valueTruncated || part.fieldnameTruncated) {
        throw new AppError('payload_too_large', `The form field ${part.fieldname} is too long.`);
      } else if (typeof part.value === 'string') {
        raw[part.fieldname] = part.value;
      } else if (part.value !== undefined) {
        // A field sent with `Content-Type: application/json` arrives parsed: back to its text, so the
        // schema checks it like any other (a JSON-string field such as voice_settings).
        raw[part.fieldname] = JSON.stringify(part.value);
      }
    }
  } catch (error) {
    throw toRequestError(error);
  }
  // The shared pipeline's string rule (request-strings.ts), for the fields and file names of a form.
  const unstorable =
    findUnstorable(raw) ?? (files.some((f) => hasUnstorableCharacter(f.filename)) ? [fileField] : undefined);
  if (unstorable) throw unstorableAt(['body', ...unstorable]);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidBody(parsed.error.issues);
  return { fields: parsed.data, file: files[0], files };
}

/** An uploaded file written to disk as it arrived (never held in memory whole). */
export interface DiskUpload {
  path: string;
  bytes: number;
  filename: string;
  mimetype: string;
}

/** The largest small text file readMultipartToDisk takes beside its upload. */
const TEXT_FILE_MAX_BYTES = 1024 * 1024;

/**
 * Reads a multipart/form-data body whose one file under `fileField` may be large (speech to text takes up
 * to 1 GB): the file is streamed to `dir/upload` (the scope's limit stops it), other files are drained, and
 * the text fields are validated by `schema` like readMultipartForm's. A field sent more than once (e.g.
 * `timestamp_granularities[]`) arrives joined by commas. `raw` is every text field as sent.
 */
export async function readMultipartToDisk<S extends z.ZodType>(
  request: FastifyRequest,
  fileField: string,
  schema: S,
  dir: string,
  /** Small text files also taken (dubbing's `csv_file`), by field name: their text, at most 1 MB each. */
  textFiles: readonly string[] = [],
): Promise<{
  fields: z.infer<S>;
  raw: Record<string, string>;
  file: DiskUpload | undefined;
  texts: Record<string, string>;
}> {
  if (!request.isMultipart())
    throw new AppError('unsupported_media_type', 'The request must be multipart/form-data.');
  const raw: Record<string, string> = {};
  const texts: Record<string, string> = {};
  let file: DiskUpload | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file' && textFiles.includes(part.fieldname) && texts[part.fieldname] === undefined) {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of part.file) {
          size += (chunk as Buffer).length;
          if (size > TEXT_FILE_MAX_BYTES)
            throw new AppError('payload_too_large', `The file ${part.fieldname} is larger than 1 MB.`);
          chunks.push(chunk as Buffer);
        }
        texts[part.fieldname] = Buffer.concat(chunks).toString('utf8');
      } else if (part.type === 'file') {
        if ((part.fieldname === fileField || part.fieldname === `${fileField}[]`) && !file) {
          const target = path.join(dir, 'upload');
          await pipeline(part.file, createWriteStream(target, { mode: 0o600 }));
          if (part.file.truncated) throw new AppError('payload_too_large', 'The uploaded file is too large.');
          const { size } = await stat(target);
          file = { path: target, bytes: size, filename: part.filename, mimetype: part.mimetype };
        } else {
          part.file.resume();
          await new Promise((resolve) => part.file.once('end', resolve));
        }
      } else if (part.valueTruncated || part.fieldnameTruncated) {
        throw new AppError('payload_too_large', `The form field ${part.fieldname} is too long.`);
      } else {
        const value =
          typeof part.value === 'string'
            ? part.value
            : part.value === undefined
              ? undefined
              : JSON.stringify(part.value);
        if (value !== undefined) {
          const before = raw[part.fieldname];
          raw[part.fieldname] = before === undefined ? value : `${before},${value}`;
        }
      }
    }
  } catch (error) {
    throw toRequestError(error);
  }
  const unstorable =
    findUnstorable(raw) ?? (file && hasUnstorableCharacter(file.filename) ? [fileField] : undefined);
  if (unstorable) throw unstorableAt(['body', ...unstorable]);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidBody(parsed.error.issues);
  return { fields: parsed.data, raw, file, texts };
}

/**
 * readMultipartForm for forms whose fields may repeat (`genres`, `pronunciation_dictionary_locators`):
 * the fields named in `lists` arrive as arrays of every value sent, the others keep their last value.
 * The one file under `fileField` is read into memory (the scope's limit bounds it), and so are the text
 * fields, at most `maxTextBytes` together: the scope's per-field limit alone let 200 fields of 20 MB each
 * be held at once (a review found it; `from_content_json` is the one large field Studio takes).
 */
export async function readMultipartWithLists<S extends z.ZodType>(
  request: FastifyRequest,
  fileField: string,
  schema: S,
  lists: readonly string[],
  maxTextBytes = 1024 * 1024,
): Promise<{ fields: z.infer<S>; file: UploadedFile | undefined }> {
  if (!request.isMultipart())
    throw new AppError('unsupported_media_type', 'The request must be multipart/form-data.');
  const raw: Record<string, string | string[]> = {};
  let file: UploadedFile | undefined;
  let textBytes = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if ((part.fieldname === fileField || part.fieldname === `${fileField}[]`) && !file) {
          const bytes = await part.toBuffer();
          file = { bytes, filename: part.filename, mimetype: part.mimetype };
        } else {
          part.file.resume();
          await new Promise((resolve) => part.file.once('end', resolve));
        }
      } else if (part.valueTruncated || part.fieldnameTruncated) {
        throw new AppError('payload_too_large', `The form field ${part.fieldname} is too long.`);
      } else {
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        textBytes += Buffer.byteLength(value ?? '') + part.fieldname.length;
        if (textBytes > maxTextBytes)
          throw new AppError(
            'payload_too_large',
            `The form's fields are larger than ${Math.round(maxTextBytes / (1024 * 1024))} MB together.`,
          );
        const name = part.fieldname.replace(/\[\]$/, '');
        if (lists.includes(name)) raw[name] = [...((raw[name] as string[] | undefined) ?? []), value];
        else raw[name] = value;
      }
    }
  } catch (error) {
    throw toRequestError(error);
  }
  const unstorable =
    findUnstorable(raw) ?? (file && hasUnstorableCharacter(file.filename) ? [fileField] : undefined);
  if (unstorable) throw unstorableAt(['body', ...unstorable]);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidBody(parsed.error.issues);
  return { fields: parsed.data, file };
}
