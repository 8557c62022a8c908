import { once } from 'node:events';
import net from 'node:net';
import { MAX_DICTIONARY_RULES, WS_CLOSE } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  callAs,
  characterCountOf,
  newSpeechAccount,
  premadeVoiceId,
  type SpeechAccount,
} from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { apiKeys } from '../api-keys/api-keys.tables';
import { workspaceMembers } from '../workspaces/workspaces.tables';
import { pronunciationDictionaries } from './pronunciation-dictionaries.tables';

/*
 * Pronunciation dictionaries' bad input (issue 30 "Done when"): a lexicon with XXE, billion laughs or an
 * undeclared entity, a file that is not XML, a 200 MB upload, a wrong alphabet, too many rules, unknown
 * and other workspaces' ids; and a speech request naming more than three, or an unknown, dictionary — each
 * a clear 4xx in the API's error shape, nothing stored, nothing charged, the process serving on.
 */

let t: TestApp;
let baseUrl: string;
let a: SpeechAccount;
let b: SpeechAccount;
let bDictionary: { id: string; version_id: string };
const VOICE = premadeVoiceId('Sarah');
const db = () => t.deps.database.db;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  a = await newSpeechAccount(t.app, baseUrl);
  b = await newSpeechAccount(t.app, baseUrl);
  bDictionary = (
    await callAs(t.app, b, 'POST', '/v1/pronunciation-dictionaries/add-from-rules', {
      name: 'B’s',
      rules: [{ type: 'alias', string_to_replace: 'B', alias: 'bee' }],
    })
  ).json();
}, 60_000);
afterAll(() => t.close());

async function upload(bytes: Buffer | string, name = 'Lexicon') {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([bytes]), 'lexicon.pls');
  const response = await fetch(`${baseUrl}/v1/pronunciation-dictionaries/add-from-file`, {
    method: 'POST',
    headers: { 'xi-api-key': a.key },
    body: form,
  });
  return {
    status: response.status,
    detail: ((await response.json()) as { detail: { status: string; message: string } }).detail,
  };
}

const count = async (account: SpeechAccount) =>
  (
    await callAs(t.app, account, 'GET', '/v1/pronunciation-dictionaries?include_archived=true&page_size=100')
  ).json().pronunciation_dictionaries.length as number;

const lexicon = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><lexicon version="1.0" alphabet="ipa">${body}</lexicon>`;

/**
 * Streams a 200 MB multipart upload in 64 KB writes (the server reads past the 1 MB limit only to discard
 * it, never holding more than the limit): what came back and how much was written.
 */
function hugeUpload(): Promise<{ text: string; written: number }> {
  const port = Number(new URL(baseUrl).port);
  const boundary = 'parla-huge-lexicon';
  const partHead = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nHuge\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pls"\r\nContent-Type: application/pls+xml\r\n\r\n`,
  );
  const total = 200 * 1024 * 1024;
  const head =
    `POST /v1/pronunciation-dictionaries/add-from-file HTTP/1.1\r\nHost: 127.0.0.1\r\nxi-api-key: ${a.key}\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${total}\r\n\r\n`;
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let written = partHead.length;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      socket.destroy();
      resolve({ text, written });
    };
    socket.on('data', (data) => {
      text += data.toString('latin1');
      if (/\r\n\r\n[\s\S]*\}/.test(text)) finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
    socket.write(head);
    socket.write(partHead);
    // Exactly Content-Length bytes: the file's filler, then the closing boundary.
    const pump = () => {
      while (!finished && written < total - tail.length) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - tail.length - written));
        written += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      if (!finished) socket.write(tail);
    };
    pump();
  });
}

describe('lexicons that are refused, storing nothing', () => {
  it('XXE, billion laughs, an undeclared entity, not XML, a wrong alphabet: 400 pronunciation_lexicon_invalid', async () => {
    const cases: [string, Buffer | string, RegExp][] = [
      [
        'XXE',
        '<?xml version="1.0"?><!DOCTYPE lexicon [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><lexicon alphabet="ipa"><lexeme><grapheme>x</grapheme><alias>&xxe;</alias></lexeme></lexicon>',
        /DOCTYPE or entity declarations/,
      ],
      [
        'billion laughs',
        `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>${lexicon('<lexeme><grapheme>x</grapheme><alias>&c;</alias></lexeme>')}`,
        /DOCTYPE or entity declarations/,
      ],
      [
        'an undeclared entity',
        lexicon('<lexeme><grapheme>x</grapheme><alias>&passwd;</alias></lexeme>'),
        /entity reference "&passwd"/,
      ],
      [
        'a PNG',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]),
        /not a PLS lexicon/,
      ],
      ['a CSV', 'tomato,təˈmɑːtoʊ\n', /not a PLS lexicon/],
      [
        'SAMPA',
        lexicon('<lexeme><grapheme>x</grapheme><phoneme alphabet="x-sampa">t@</phoneme></lexeme>'),
        /"x-sampa".*not supported/,
      ],
      [
        'bad ARPAbet',
        lexicon('<lexeme><grapheme>x</grapheme><phoneme alphabet="x-cmu">T QQ1</phoneme></lexeme>'),
        /"QQ1" is not a CMU ARPAbet phone/,
      ],
    ];
    for (const [what, bytes, message] of cases) {
      const refused = await upload(bytes);
      expect([what, refused.status, refused.detail.status], refused.detail.message).toEqual([
        what,
        400,
        'pronunciation_lexicon_invalid',
      ]);
      expect(refused.detail.message, what).toMatch(message);
    }
    const noFile = await fetch(`${baseUrl}/v1/pronunciation-dictionaries/add-from-file`, {
      method: 'POST',
      headers: { 'xi-api-key': a.key },
      body: (() => {
        const form = new FormData();
        form.append('name', 'No file');
        return form;
      })(),
    });
    expect(noFile.status).toBe(422);
    expect(await count(a)).toBe(0);
  });

  it('a 200 MB upload is refused with a 413, and the server serves on', async () => {
    const { text, written } = await hugeUpload();
    expect(text.slice(0, 400)).toMatch(/^HTTP\/1\.1 413/);
    expect(text).toMatch(/"status":"payload_too_large"/);
    expect(written).toBeGreaterThan(1024 * 1024);
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect(await count(a)).toBe(0);
  }, 60_000);
});

describe('rules and ids that are refused', () => {
  it('a wrong alphabet or phonemes: 422 at the rule’s field; too many rules: 400, the version unchanged', async () => {
    const post = (body: unknown) =>
      callAs(t.app, a, 'POST', '/v1/pronunciation-dictionaries/add-from-rules', body);
    const sampa = await post({
      name: 'x',
      rules: [{ type: 'phoneme', string_to_replace: 'x', phoneme: 't@', alphabet: 'x-sampa' }],
    });
    expect(sampa.statusCode).toBe(422);
    const ipa = await post({
      name: 'x',
      rules: [{ type: 'phoneme', string_to_replace: 'x', phoneme: 't@!', alphabet: 'ipa' }],
    });
    expect([ipa.statusCode, ipa.json().detail.errors[0].loc]).toEqual([422, ['body', 'rules', 0, 'phoneme']]);
    expect(ipa.json().detail.message).toMatch(/not IPA/);
    const arpabet = await post({
      name: 'x',
      rules: [{ type: 'phoneme', string_to_replace: 'x', phoneme: 'T XX0', alphabet: 'cmu-arpabet' }],
    });
    expect(arpabet.json().detail.message).toMatch(/"XX0" is not a CMU ARPAbet phone/);
    expect(await count(a)).toBe(0);

    const full = Array.from({ length: MAX_DICTIONARY_RULES }, (_, i) => ({
      type: 'alias',
      string_to_replace: `word${i}`,
      alias: 'a word',
    }));
    const made = (await post({ name: 'Full', rules: full })).json() as {
      id: string;
      version_id: string;
      version_rules_num: number;
    };
    expect(made.version_rules_num).toBe(MAX_DICTIONARY_RULES);
    const over = await callAs(t.app, a, 'POST', `/v1/pronunciation-dictionaries/${made.id}/add-rules`, {
      rules: [{ type: 'alias', string_to_replace: 'one more', alias: 'x' }],
    });
    expect([over.statusCode, over.json().detail.status]).toEqual([
      400,
      'pronunciation_dictionary_limit_reached',
    ]);
    // Replacing a rule already there keeps the count: allowed.
    const replaced = await callAs(t.app, a, 'POST', `/v1/pronunciation-dictionaries/${made.id}/add-rules`, {
      rules: [{ type: 'alias', string_to_replace: 'word0', alias: 'first' }],
    });
    expect(replaced.json().version_rules_num).toBe(MAX_DICTIONARY_RULES);
    const tooMany = await post({
      name: 'x',
      rules: [...full, { type: 'alias', string_to_replace: 'y', alias: 'y' }],
    });
    expect(tooMany.statusCode).toBe(422);
  });

  it('an unknown id and another workspace’s id get the same 404', async () => {
    const paths: [string, string, unknown?][] = [
      ['GET', '/v1/pronunciation-dictionaries/ID'],
      ['PATCH', '/v1/pronunciation-dictionaries/ID', { name: 'Stolen', archived: true }],
      [
        'POST',
        '/v1/pronunciation-dictionaries/ID/add-rules',
        { rules: [{ type: 'alias', string_to_replace: 'x', alias: 'y' }] },
      ],
      ['POST', '/v1/pronunciation-dictionaries/ID/remove-rules', { rule_strings: ['B'] }],
      ['POST', '/v1/pronunciation-dictionaries/ID/set-rules', { rules: [] }],
      ['GET', '/v1/pronunciation-dictionaries/ID/VERSION/download'],
    ];
    for (const [method, path, body] of paths) {
      const unknown = await callAs(
        t.app,
        a,
        method,
        path.replace('ID', 'nope').replace('VERSION', 'nope'),
        body,
      );
      const foreign = await callAs(
        t.app,
        a,
        method,
        path.replace('ID', bDictionary.id).replace('VERSION', bDictionary.version_id),
        body,
      );
      expect([path, unknown.statusCode, foreign.statusCode]).toEqual([path, 404, 404]);
      expect(foreign.json().detail.status).toBe('pronunciation_dictionary_not_found');
      expect(foreign.json().detail.message.replace(bDictionary.id, 'nope')).toBe(
        unknown.json().detail.message,
      );
    }
    const mine = (
      await callAs(t.app, a, 'POST', '/v1/pronunciation-dictionaries/add-from-rules', {
        name: 'Mine',
        rules: [],
      })
    ).json() as { id: string };
    const wrongVersion = await callAs(
      t.app,
      a,
      'GET',
      `/v1/pronunciation-dictionaries/${mine.id}/${bDictionary.version_id}/download`,
    );
    expect([wrongVersion.statusCode, wrongVersion.json().detail.status]).toEqual([
      404,
      'pronunciation_dictionary_not_found',
    ]);
    // B's dictionary is as it was.
    const theirs = await b.sdk.pronunciationDictionaries.get(bDictionary.id);
    expect(theirs).toMatchObject({
      name: 'B’s',
      latestVersionId: bDictionary.version_id,
      latestVersionRulesNum: 1,
    });
    expect(theirs.archivedTimeUnix ?? null).toBeNull();
  });
});

describe('speech naming dictionaries it may not use: refused before anything is charged', () => {
  it('text to speech (every variant), dialogue and the default list: more than three → 422, unknown or foreign → 404', async () => {
    const four = Array.from({ length: 4 }, () => ({ pronunciation_dictionary_id: bDictionary.id }));
    const foreign = [{ pronunciation_dictionary_id: bDictionary.id }];
    const unknownVersion = [{ pronunciation_dictionary_id: bDictionary.id, version_id: 'nope' }];
    for (const path of [
      `/v1/text-to-speech/${VOICE}`,
      `/v1/text-to-speech/${VOICE}/stream`,
      `/v1/text-to-speech/${VOICE}/with-timestamps`,
      `/v1/text-to-speech/${VOICE}/stream/with-timestamps`,
    ]) {
      const tooMany = await callAs(t.app, a, 'POST', path, {
        text: 'Hello.',
        pronunciation_dictionary_locators: four,
      });
      expect([path, tooMany.statusCode]).toEqual([path, 422]);
      expect(tooMany.json().detail.message).toMatch(/at most 3 pronunciation dictionaries/);
      for (const locators of [foreign, unknownVersion, [{ pronunciation_dictionary_id: 'nope' }]]) {
        const refused = await callAs(t.app, a, 'POST', path, {
          text: 'Hello.',
          pronunciation_dictionary_locators: locators,
        });
        expect([path, refused.statusCode, refused.json().detail.status]).toEqual([
          path,
          404,
          'pronunciation_dictionary_not_found',
        ]);
        expect(refused.json().detail.errors[0].loc).toEqual(['body', 'pronunciation_dictionary_locators', 0]);
      }
    }
    const lines = [{ text: 'Hello.', voice_id: VOICE }];
    for (const path of ['/v1/text-to-dialogue', '/v1/text-to-dialogue/stream']) {
      const refused = await callAs(t.app, a, 'POST', path, {
        inputs: lines,
        pronunciation_dictionary_locators: foreign,
      });
      expect([path, refused.statusCode, refused.json().detail.status]).toEqual([
        path,
        404,
        'pronunciation_dictionary_not_found',
      ]);
      const tooMany = await callAs(t.app, a, 'POST', path, {
        inputs: lines,
        pronunciation_dictionary_locators: four,
      });
      expect([path, tooMany.statusCode]).toEqual([path, 422]);
    }
    const setForeign = await callAs(t.app, a, 'PUT', '/v1/workspace/pronunciation-dictionaries', {
      pronunciation_dictionary_locators: foreign,
    });
    expect(setForeign.statusCode).toBe(404);
    const setFour = await callAs(t.app, a, 'PUT', '/v1/workspace/pronunciation-dictionaries', {
      pronunciation_dictionary_locators: four,
    });
    expect(setFour.statusCode).toBe(422);
    expect((await callAs(t.app, a, 'GET', '/v1/workspace/pronunciation-dictionaries')).json()).toEqual({
      pronunciation_dictionary_locators: [],
    });
    expect(await characterCountOf(db(), a.workspaceId)).toBe(0);
  });

  it('an alias that makes a short match hundreds of characters long is refused (HTTP and socket), nothing charged', async () => {
    const { id } = (
      await callAs(t.app, a, 'POST', '/v1/pronunciation-dictionaries/add-from-rules', {
        name: 'Amplifier',
        rules: [{ type: 'alias', string_to_replace: 'a', alias: '9'.repeat(400), word_boundaries: false }],
      })
    ).json();
    const locators = [{ pronunciation_dictionary_id: id }];
    const refused = await callAs(t.app, a, 'POST', `/v1/text-to-speech/${VOICE}`, {
      text: 'a'.repeat(1000),
      pronunciation_dictionary_locators: locators,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail.message).toMatch(
      /would be spoken as \d+ characters, against 1000 without them/,
    );
    const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}/v1/text-to-speech/${VOICE}/stream-input`, {
      headers: { 'xi-api-key': a.key },
    });
    const messages: { error?: string; message?: string }[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await once(ws, 'open');
    ws.send(JSON.stringify({ text: ' ', pronunciation_dictionary_locators: locators }));
    ws.send(JSON.stringify({ text: 'a a a. ', flush: true }));
    await closed;
    expect(messages.at(-1)?.message, JSON.stringify(messages)).toMatch(/would be spoken as/);
    expect(await characterCountOf(db(), a.workspaceId)).toBe(0);
  });

  it('a workspace at 499 dictionaries asked for two at once makes one: the 500th, and a 400 for the other', async () => {
    const full = await newSpeechAccount(t.app, baseUrl);
    await db()
      .insert(pronunciationDictionaries)
      .values(
        Array.from({ length: 499 }, (_, i) => ({
          id: `filler-${full.workspaceId}-${i}`,
          workspaceId: full.workspaceId,
          createdBy: full.userId,
          name: `Filler ${i}`,
          latestVersionId: `filler-version-${i}`,
          latestRulesNum: 0,
        })),
      );
    const create = () =>
      callAs(t.app, full, 'POST', '/v1/pronunciation-dictionaries/add-from-rules', {
        name: 'One more',
        rules: [{ type: 'alias', string_to_replace: 'UN', alias: 'United Nations' }],
      });
    const answers = await Promise.all([create(), create()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.statusCode === 400)?.json().detail).toEqual({
      status: 'pronunciation_dictionary_limit_reached',
      message: 'A workspace keeps at most 500 pronunciation dictionaries.',
    });
    const rows = await db()
      .select({ id: pronunciationDictionaries.id })
      .from(pronunciationDictionaries)
      .where(eq(pronunciationDictionaries.workspaceId, full.workspaceId));
    expect(rows).toHaveLength(500);
  });

  it('a member without admin rights may not set the workspace default list: 403, the list unchanged', async () => {
    const owner = await newSpeechAccount(t.app, baseUrl);
    const { id } = (
      await callAs(t.app, owner, 'POST', '/v1/pronunciation-dictionaries/add-from-rules', {
        name: 'House style',
        rules: [{ type: 'alias', string_to_replace: 'UN', alias: 'United Nations' }],
      })
    ).json();
    const member = await newSpeechAccount(t.app, baseUrl);
    await db()
      .insert(workspaceMembers)
      .values({ workspaceId: owner.workspaceId, userId: member.userId, role: 'member' });
    await db()
      .update(apiKeys)
      .set({ workspaceId: owner.workspaceId })
      .where(eq(apiKeys.userId, member.userId));
    const locators = [{ pronunciation_dictionary_id: id }];
    const refused = await callAs(t.app, member, 'PUT', '/v1/workspace/pronunciation-dictionaries', {
      pronunciation_dictionary_locators: locators,
    });
    expect([refused.statusCode, refused.json().detail.status]).toEqual([403, 'forbidden']);
    // The member still reads the list and names the dictionary in its own requests.
    const read = await callAs(t.app, member, 'GET', '/v1/workspace/pronunciation-dictionaries');
    expect(read.json()).toEqual({ pronunciation_dictionary_locators: [] });
    const set = await callAs(t.app, owner, 'PUT', '/v1/workspace/pronunciation-dictionaries', {
      pronunciation_dictionary_locators: locators,
    });
    expect(set.statusCode).toBe(200);
  });

  it('both TTS sockets: an unknown dictionary ends the socket with its error, more than three is an invalid message', async () => {
    const wsBase = baseUrl.replace('http', 'ws');
    for (const kind of ['stream-input', 'multi-stream-input']) {
      for (const [locators, error] of [
        [[{ pronunciation_dictionary_id: bDictionary.id }], 'pronunciation_dictionary_not_found'],
        [Array.from({ length: 4 }, () => ({ pronunciation_dictionary_id: 'x' })), 'invalid_input_message'],
      ] as const) {
        const ws = new WebSocket(`${wsBase}/v1/text-to-speech/${VOICE}/${kind}`, {
          headers: { 'xi-api-key': a.key },
        });
        const messages: { error?: string; message?: string }[] = [];
        ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
        const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
        await once(ws, 'open');
        ws.send(
          JSON.stringify({ text: 'Hello. ', pronunciation_dictionary_locators: locators, flush: true }),
        );
        const code = await closed;
        expect([kind, messages.at(-1)?.error], JSON.stringify(messages)).toEqual([kind, error]);
        expect(code).not.toBe(WS_CLOSE.normal);
      }
    }
    expect(await characterCountOf(db(), a.workspaceId)).toBe(0);
  });
});
