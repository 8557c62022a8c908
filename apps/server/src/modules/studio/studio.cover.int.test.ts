import { STUDIO_MAX_COVER_BYTES } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { coverFolder } from './studio.cover';

/*
 * A Studio project's cover image (issue 30, audiobook metadata with a cover): PNG or JPEG known by their
 * first bytes, at most 10 MB; refused uploads get the API's error shape and store nothing; the project's
 * cover_image_url reads it back; another workspace cannot; a new cover replaces the old one; DELETE removes it.
 */

let t: TestApp;
let baseUrl: string;
let owner: SpeechAccount;
let stranger: SpeechAccount;

/** A 1 × 1 PNG (signature, IHDR, IDAT, IEND). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** The start of a JPEG (SOI, APP0 JFIF): the kind is read from these bytes. */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0', 'latin1'),
  Buffer.alloc(64),
  Buffer.from([0xff, 0xd9]),
]);

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await newSpeechAccount(t.app, baseUrl);
  stranger = await newSpeechAccount(t.app, baseUrl);
}, 60_000);
afterAll(async () => {
  await t.close();
});

function upload(account: SpeechAccount, projectId: string, bytes: Buffer | null, name = 'cover.png') {
  const form = new FormData();
  if (bytes) form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  else form.append('note', 'no file');
  return fetch(`${baseUrl}/v1/studio/projects/${projectId}/cover`, {
    method: 'POST',
    headers: { 'xi-api-key': account.key },
    body: form,
  });
}
const readCover = (account: SpeechAccount, projectId: string) =>
  fetch(`${baseUrl}/v1/studio/projects/${projectId}/cover`, { headers: { 'xi-api-key': account.key } });
async function coverUrlOf(projectId: string): Promise<string> {
  const project = await owner.sdk.studio.projects.get(projectId);
  return project.coverImageUrl ?? '';
}

describe('Studio cover image', () => {
  it('takes a PNG or JPEG by its bytes, refuses anything else with nothing stored, and reads it back', async () => {
    const { project } = await owner.sdk.studio.projects.create({ name: 'Covered book' });
    const id = project.projectId;

    // Refused: not an image (whatever its name says), a GIF, no file, over 10 MB.
    for (const [bytes, status, code] of [
      [Buffer.from('not an image at all'), 422, 'invalid_request'],
      [Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 422, 'invalid_request'],
      [null, 422, 'invalid_request'],
      [Buffer.concat([PNG, Buffer.alloc(STUDIO_MAX_COVER_BYTES)]), 413, 'payload_too_large'],
    ] as const) {
      const refused = await upload(owner, id, bytes);
      expect(refused.status).toBe(status);
      const body = (await refused.json()) as { detail: { status: string; message: string } };
      expect(body.detail.status).toBe(code);
      expect(body.detail.message).toMatch(/cover image/);
    }
    expect(await coverUrlOf(id)).toBe('');
    expect(await t.deps.storage.list(coverFolder({ workspaceId: owner.workspaceId, id }))).toEqual([]);
    expect((await readCover(owner, id)).status).toBe(404);

    const set = await upload(owner, id, PNG);
    expect(set.status).toBe(200);
    const answered = (await set.json()) as { project: { cover_image_url: string } };
    expect(answered.project.cover_image_url).toMatch(
      new RegExp(`/v1/studio/projects/${id}/cover\\?v=[0-9a-f]{16}$`),
    );
    expect(await coverUrlOf(id)).toBe(answered.project.cover_image_url);
    const png = await readCover(owner, id);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).equals(PNG)).toBe(true);
    // Another workspace's project is not there for a stranger.
    expect((await readCover(stranger, id)).status).toBe(404);
    expect((await upload(stranger, id, PNG)).status).toBe(404);

    // A JPEG (named .png: the bytes decide) replaces it: one cover file, a new version in the URL.
    expect((await upload(owner, id, JPEG, 'cover.png')).status).toBe(200);
    expect(await coverUrlOf(id)).not.toBe(answered.project.cover_image_url);
    const jpeg = await readCover(owner, id);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    expect(await t.deps.storage.list(coverFolder({ workspaceId: owner.workspaceId, id }))).toEqual([
      `${coverFolder({ workspaceId: owner.workspaceId, id })}image.jpg`,
    ]);

    const removed = await fetch(`${baseUrl}/v1/studio/projects/${id}/cover`, {
      method: 'DELETE',
      headers: { 'xi-api-key': owner.key },
    });
    expect(((await removed.json()) as { project: { cover_image_url: string } }).project.cover_image_url).toBe(
      '',
    );
    expect((await readCover(owner, id)).status).toBe(404);
  });
});
