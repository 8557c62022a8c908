import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../../event-handlers';
import { systemClock } from '../../platform/clock';
import type { Database } from '../../platform/db/client';
import { workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { JobQueue } from '../../platform/jobs/job-queue';
import { jobs } from '../../platform/jobs/jobs.tables';
import { LocalStorage } from '../../platform/storage/local-storage';
import { createTestUser } from '../../test/factories';
import { openTestDatabase } from '../../test/test-app';
import { voices } from '../voices/voices.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/*
 * A deleted workspace's clean-up goes through `workspace.deleted` (issue 17 item 2): history removes its
 * audio and share videos, voices disables the library copies of its voices and removes their files — right
 * after the commit, never on a rollback, and again as durable jobs so a crash in between still cleans up.
 */

let database: Database;
let dataDir: string;
let storage: LocalStorage;
let bus: EventBus;
beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-deletion-'));
  storage = new LocalStorage(dataDir);
  bus = createEventBus({
    db: database.db,
    queue: new JobQueue(database.db),
    logger: pino({ level: 'silent' }),
    clock: systemClock,
    storage,
  });
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const DURABLE = [
  'conversations.workspace-deleted.durable',
  'dubbing.workspace-deleted.durable',
  'history.workspace-deleted.durable',
  'speech-to-text.workspace-deleted.durable',
  'studio.workspace-deleted.durable',
  'voice-design.workspace-deleted.durable',
  'voices.workspace-deleted.durable',
];

/** A workspace with a shared voice, a copy of it in another workspace, and files of every kind. */
async function workspaceWithFiles() {
  const { user, workspace } = await createTestUser(database.db);
  const other = await createTestUser(database.db);
  const voiceId = newId();
  const copyId = newId();
  const voice = { category: 'cloned' as const, language: 'en', baseVoiceId: 'premade' };
  await database.db.insert(voices).values([
    { id: voiceId, workspaceId: workspace.id, name: 'Original', sharingStatus: 'enabled', ...voice },
    {
      id: copyId,
      workspaceId: other.workspace.id,
      name: 'Copy',
      sharingStatus: 'copied',
      originalVoiceId: voiceId,
      ...voice,
    },
  ]);
  const files = [
    `history/${workspace.id}/${newId()}.mp3`,
    `share-videos/${workspace.id}/${newId()}/dark.png`,
    `voices/${workspace.id}/${voiceId}/sample.wav`,
    `voice-design/${workspace.id}/${newId()}.mp3`,
    `voice-previews/own/${voiceId}.mp3`,
    `dubbing/${workspace.id}/${newId()}/source.mov`,
    `studio/${workspace.id}/${newId()}/snapshots/${newId()}.mp3`,
    // Audio Native's joined audio lives beside its Studio project's files (audio-native.service.ts playerAudio).
    `studio/${workspace.id}/${newId()}/audio-native/${newId()}.mp3`,
  ];
  const kept = `history/${other.workspace.id}/${newId()}.mp3`;
  for (const key of [...files, kept]) await storage.put(key, Buffer.from('x'));
  const event = { workspaceId: workspace.id, ownerId: user.id, voiceIds: [voiceId] };
  return { workspace, copyId, files, kept, event };
}

const exists = async (keys: string[]) =>
  Promise.all(keys.map(async (key) => (await storage.stat(key)) !== undefined));
const copyStatus = async (id: string) =>
  (await database.db.select().from(voices).where(eq(voices.id, id)))[0]?.sharingStatus;
async function deliveriesOf(workspaceId: string) {
  const rows = await database.db
    .select()
    .from(jobs)
    .where(inArray(jobs.name, ['events.deliver']));
  return rows
    .filter(
      (row) => (row.payload as { payload: { workspaceId?: string } }).payload.workspaceId === workspaceId,
    )
    .map((row) => (row.payload as { handler: string }).handler)
    .sort();
}

describe('workspace deletion clean-up', () => {
  it('runs after the commit and is queued again as durable jobs; a rollback keeps everything', async () => {
    const { workspace, copyId, files, kept, event } = await workspaceWithFiles();
    await expect(
      bus.transaction(async (tx, events) => {
        await tx.delete(workspaces).where(eq(workspaces.id, workspace.id));
        await events.publish(workspaceDeleted, event);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await exists(files)).toEqual(files.map(() => true));
    expect(await copyStatus(copyId)).toBe('copied');
    expect(await deliveriesOf(workspace.id)).toEqual([]);

    await bus.transaction(async (tx, events) => {
      await tx.delete(workspaces).where(eq(workspaces.id, workspace.id));
      await events.publish(workspaceDeleted, event);
      // The copies stop working in the deleting transaction itself, not after it.
      const [copy] = await tx.select().from(voices).where(eq(voices.id, copyId));
      expect(copy?.sharingStatus).toBe('copied_disabled');
    });
    expect(await exists(files)).toEqual(files.map(() => false));
    expect(await exists([kept])).toEqual([true]);
    expect(await copyStatus(copyId)).toBe('copied_disabled');
    expect(await deliveriesOf(workspace.id)).toEqual(DURABLE);
  });

  it('the durable handlers clean up the files a crash after the commit left behind', async () => {
    const { workspace, copyId, files, kept, event } = await workspaceWithFiles();
    // The commit happened, the process died before its first pass: the rows are gone, the files are not.
    await database.db.delete(workspaces).where(eq(workspaces.id, workspace.id));
    for (const handler of DURABLE) await bus.deliverDurable(workspaceDeleted.name, handler, event);
    expect(await exists(files)).toEqual(files.map(() => false));
    expect(await exists([kept])).toEqual([true]);
    // The copies are the transaction's part (above), not the durable handlers'.
    expect(await copyStatus(copyId)).toBe('copied');
  });
});
