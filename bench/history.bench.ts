/**
 * History pages (issue 6): `GET /v1/history`'s page query (listHistory + the response mapping, as the
 * route runs them) on a workspace of 1,000 items against one of 200,000, each in a fresh on-disk PGlite
 * database migrated as `npm start` does (or the PostgreSQL of DATABASE_URL, one schema after the other).
 * Keyset pagination must not grow with the history's size: each page kind's median time on 200,000 items
 * is at most 1.5 × its time on 1,000 (the baseline, measured in the same run).
 * - first page of 100, newest first;
 * - the page after an item in the middle of the history (`start_after_history_item_id`);
 * - the first page of one voice (a quarter of the items);
 * - oldest first.
 * Full-text search pages are printed too, for information: a word found in a fixed share of the items
 * matches more rows in a bigger history, which the GIN index finds but must still order.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ListHistoryQuery, ListHistoryQuery as ListQuery } from '@parla/contracts';
import { sql } from 'drizzle-orm';
import { toHistoryItemResponse } from '../apps/server/src/modules/history/history.present';
import { listHistory } from '../apps/server/src/modules/history/history.service';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client';

const SIZES = [1_000, 200_000] as const;
const RUNS = 60;
const WARMUP = 8;
const TARGET_RATIO = 1.5;
const VOICES = ['voiceA', 'voiceB', 'voiceC', 'voiceD'];
const WORKSPACE = 'bench-workspace';

async function seed(database: Database, size: number): Promise<void> {
  const { db } = database;
  await db.execute(sql`insert into users (id, email) values (${WORKSPACE}, 'bench-history@example.com')`);
  await db.execute(
    sql`insert into workspaces (id, name, owner_id) values (${WORKSPACE}, 'Bench', ${WORKSPACE})`,
  );
  // Items one second apart, newest = 1; text varies so the search has rare and common words.
  const BATCH = 20_000;
  for (let start = 1; start <= size; start += BATCH) {
    const end = Math.min(size, start + BATCH - 1);
    await db.execute(sql`
      insert into history_items (id, workspace_id, source, voice_id, voice_name, voice_category, model_id,
        text, settings, output_format, content_type, audio_key, audio_bytes, duration_ms,
        character_count_change_from, character_count_change_to, created_at)
      select 'item' || lpad(i::text, 7, '0'), ${WORKSPACE}, 'TTS',
        (array['voiceA','voiceB','voiceC','voiceD'])[1 + i % 4], 'Voice', 'premade', 'parla_multilingual_v1',
        'Generated sentence number ' || i || ' about ' ||
          (array['the weather','a meeting','the harbour','quarterly numbers','a birthday'])[1 + i % 5] ||
          case when i % 100 = 0 then ' with a lighthouse.' else '.' end,
        '{"stability":0.5}'::jsonb, 'mp3_44100_128', 'audio/mpeg', 'history/bench/' || i || '.mp3', 1000, 1000,
        0, 10, now() - (i || ' seconds')::interval
      from generate_series(${start}::int, ${end}::int) as i`);
  }
  await db.execute(sql`analyze history_items`);
}

/** On a shared PostgreSQL: the bench's own rows only. */
async function clear(database: Database): Promise<void> {
  await database.db.execute(sql`delete from workspaces where id = ${WORKSPACE}`);
  await database.db.execute(sql`delete from users where id = ${WORKSPACE}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timePage(database: Database, query: Partial<ListHistoryQuery>): Promise<number> {
  const parsed = ListQuery.parse(query);
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    const page = await listHistory(database.db, WORKSPACE, parsed);
    page.rows.map(toHistoryItemResponse);
    if (page.rows.length === 0 && !query.search)
      throw new Error(`an empty page for ${JSON.stringify(query)}`);
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return median(times);
}

interface Figures {
  pages: Record<string, number>;
  search: Record<string, number>;
}

async function measure(size: number): Promise<Figures> {
  const url = process.env.DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-bench-history-'));
  const database = await openDatabase(
    url ? { kind: 'postgres', url, poolSize: 2 } : { kind: 'pglite', dir: path.join(dir, 'db') },
  );
  try {
    await database.migrate();
    if (url) await clear(database);
    const seeding = performance.now();
    await seed(database, size);
    console.log(
      `  seeded ${size.toLocaleString('en')} items in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const middle = `item${String(Math.floor(size / 2)).padStart(7, '0')}`;
    return {
      pages: {
        'first page (100, newest first)': await timePage(database, { page_size: 100 }),
        'page after the middle item': await timePage(database, {
          page_size: 100,
          start_after_history_item_id: middle,
        }),
        'first page of one voice': await timePage(database, { page_size: 100, voice_id: VOICES[1] }),
        'first page, oldest first': await timePage(database, { page_size: 100, sort_direction: 'asc' }),
      },
      search: {
        'search "lighthouse" (1% of items)': await timePage(database, {
          page_size: 100,
          search: 'lighthouse',
        }),
        'search "harbour" (20% of items)': await timePage(database, { page_size: 100, search: 'harbour' }),
      },
    };
  } finally {
    if (url) await clear(database);
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  console.log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite on disk'}`);
  const [small, large] = [await measure(SIZES[0]), await measure(SIZES[1])];
  let failed = false;
  const print = (name: string, a: number, b: number, target: boolean) => {
    const ratio = b / a;
    const verdict = target ? (ratio <= TARGET_RATIO ? 'PASS' : 'FAIL') : 'info';
    if (target && ratio > TARGET_RATIO) failed = true;
    console.log(
      `${name.padEnd(36)} 1k ${a.toFixed(2).padStart(7)} ms  200k ${b.toFixed(2).padStart(7)} ms  ratio ${ratio.toFixed(2)}${target ? ` (target ≤ ${TARGET_RATIO})` : ''}  ${verdict}`,
    );
  };
  for (const name of Object.keys(small.pages))
    print(name, small.pages[name] ?? Number.NaN, large.pages[name] ?? Number.NaN, true);
  for (const name of Object.keys(small.search))
    print(name, small.search[name] ?? Number.NaN, large.search[name] ?? Number.NaN, false);
  if (failed) process.exitCode = 1;
}
