import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../../test/audio-probe';
import { signUpWithApiKey } from '../../test/factories';
import {
  callAs,
  characterCountOf,
  newSpeechAccount,
  premadeVoiceId,
  type SpeechAccount,
} from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { prepareSpeech, ttsDepsOf } from '../tts';
import { dictionaryDepsOf, pronunciationRulesFor } from '.';

/*
 * Pronunciation dictionaries (issue 30) with the official client: every call of `pronunciationDictionaries`
 * (createFromFile, createFromRules, get, list with paging, update, rules.add/remove/set, download), each
 * change a new version; then the front door that turns locators (or the workspace's default list) into the
 * rules a speech request carries. No engine speaks here but one short classic call.
 */

let t: TestApp;
let baseUrl: string;
let a: SpeechAccount;

const LEXICON = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">
  <lexeme><grapheme>tomato</grapheme><phoneme>təˈmɑːtoʊ</phoneme></lexeme>
  <lexeme><grapheme>UN</grapheme><alias>United Nations</alias></lexeme>
</lexicon>`;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  a = await newSpeechAccount(t.app, baseUrl);
}, 60_000);
afterAll(() => t.close());

describe('pronunciation dictionaries with the official client', () => {
  it('creates from a PLS file and from rules, gets, renames, archives, changes rules in versions and downloads each', async () => {
    const dictionaries = a.sdk.pronunciationDictionaries;
    const fromFile = await dictionaries.createFromFile({
      name: 'Produce',
      file: new Blob([LEXICON], { type: 'application/pls+xml' }),
      description: 'Vegetables and acronyms',
      workspaceAccess: 'editor',
    });
    expect(fromFile).toMatchObject({
      name: 'Produce',
      versionRulesNum: 2,
      description: 'Vegetables and acronyms',
    });
    expect(fromFile.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(fromFile.versionId).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(fromFile.creationTimeUnix).toBeGreaterThan(1_700_000_000);

    const got = await dictionaries.get(fromFile.id);
    expect(got).toMatchObject({
      id: fromFile.id,
      latestVersionId: fromFile.versionId,
      latestVersionRulesNum: 2,
    });
    expect(got.rules).toEqual([
      { type: 'phoneme', stringToReplace: 'tomato', phoneme: 'təˈmɑːtoʊ', alphabet: 'ipa' },
      { type: 'alias', stringToReplace: 'UN', alias: 'United Nations' },
    ]);

    const fromRules = await dictionaries.createFromRules({
      name: 'Names',
      rules: [
        {
          type: 'alias',
          stringToReplace: 'Parla',
          alias: 'Par-lah',
          caseSensitive: true,
          wordBoundaries: true,
        },
        { type: 'phoneme', stringToReplace: 'data', phoneme: 'D EY1 T AH0', alphabet: 'cmu-arpabet' },
      ],
    });
    expect(fromRules).toMatchObject({ name: 'Names', versionRulesNum: 2 });
    const v1 = fromRules.versionId;

    // add: a new string is appended, a string already there is replaced in place; a new version each time.
    const added = await dictionaries.rules.add(fromRules.id, {
      rules: [
        { type: 'alias', stringToReplace: 'Parla', alias: 'Parla the app' },
        { type: 'alias', stringToReplace: 'TTS', alias: 'text to speech' },
      ],
    });
    expect(added).toMatchObject({ id: fromRules.id, versionRulesNum: 3 });
    expect(added.versionId).not.toBe(v1);
    const afterAdd = await dictionaries.get(fromRules.id);
    expect(afterAdd.latestVersionId).toBe(added.versionId);
    expect(afterAdd.rules.map((r) => r.stringToReplace)).toEqual(['Parla', 'data', 'TTS']);
    expect(afterAdd.rules[0]).toMatchObject({ alias: 'Parla the app' });

    // Trimmed like the stored strings: ' data ' removes the rule for 'data'.
    const removed = await dictionaries.rules.remove(fromRules.id, { ruleStrings: [' data ', 'not there'] });
    expect(removed.versionRulesNum).toBe(2);
    const set = await dictionaries.rules.set(fromRules.id, {
      rules: [{ type: 'phoneme', stringToReplace: 'tomato', phoneme: 'təˈmeɪtoʊ', alphabet: 'ipa' }],
    });
    expect(set.versionRulesNum).toBe(1);
    expect(new Set([v1, added.versionId, removed.versionId, set.versionId]).size).toBe(4);

    // Each version keeps its rules: the first one downloads as it was made.
    const first = (await readAll(await dictionaries.download(fromRules.id, v1))).toString();
    expect(first).toContain('<grapheme>Parla</grapheme>');
    expect(first).toContain('<alias>Par-lah</alias>');
    expect(first).toContain('<phoneme alphabet="cmu-arpabet">D EY1 T AH0</phoneme>');
    const latest = (await readAll(await dictionaries.download(fromRules.id, set.versionId))).toString();
    expect(latest).toContain('<phoneme alphabet="ipa">təˈmeɪtoʊ</phoneme>');
    expect(latest).not.toContain('Parla');
    const raw = await callAs(
      t.app,
      a,
      'GET',
      `/v1/pronunciation-dictionaries/${fromRules.id}/${set.versionId}/download`,
    );
    expect(raw.headers['content-type']).toBe('application/pls+xml; charset=utf-8');

    const renamed = await dictionaries.update(fromRules.id, { name: 'People' });
    expect(renamed).toMatchObject({
      name: 'People',
      latestVersionId: set.versionId,
      latestVersionRulesNum: 1,
    });
    expect(renamed.archivedTimeUnix ?? null).toBeNull();
    const archived = await dictionaries.update(fromFile.id, { archived: true });
    expect(archived.archivedTimeUnix).toBeGreaterThan(1_700_000_000);
    const listed = await dictionaries.list();
    expect(listed.pronunciationDictionaries.map((d) => d.name)).toEqual(['People']);
    const all = await dictionaries.list({ includeArchived: true, sort: 'name', sortDirection: 'ascending' });
    expect(all.pronunciationDictionaries.map((d) => d.name)).toEqual(['People', 'Produce']);
  });

  it('changes made at once each make their own version, none lost', async () => {
    const made = await a.sdk.pronunciationDictionaries.createFromRules({ name: 'Busy', rules: [] });
    const versions = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        a.sdk.pronunciationDictionaries.rules.add(made.id, {
          rules: [{ type: 'alias', stringToReplace: `word${i}`, alias: `alias ${i}` }],
        }),
      ),
    );
    expect(new Set(versions.map((v) => v.versionId)).size).toBe(6);
    expect(versions.map((v) => v.versionRulesNum).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const got = await a.sdk.pronunciationDictionaries.get(made.id);
    expect(got.latestVersionRulesNum).toBe(6);
    expect(got.rules.map((r) => r.stringToReplace).sort()).toEqual([
      'word0',
      'word1',
      'word2',
      'word3',
      'word4',
      'word5',
    ]);
  });

  it('lists a page at a time, newest first or by name', async () => {
    const b = await newSpeechAccount(t.app, baseUrl);
    for (const name of ['Charlie', 'alpha', 'Bravo', 'delta', 'Echo'])
      await b.sdk.pronunciationDictionaries.createFromRules({
        name,
        rules: [{ type: 'alias', stringToReplace: name, alias: name.toUpperCase() }],
      });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await b.sdk.pronunciationDictionaries.list({
        pageSize: 2,
        sort: 'name',
        sortDirection: 'ASCENDING',
        cursor,
      });
      names.push(...page.pronunciationDictionaries.map((d) => d.name));
      cursor = page.hasMore ? page.nextCursor : undefined;
      pages += 1;
    } while (cursor);
    expect([names, pages]).toEqual([['alpha', 'Bravo', 'Charlie', 'delta', 'Echo'], 3]);
    const newest = await b.sdk.pronunciationDictionaries.list({ pageSize: 2 });
    expect(newest.pronunciationDictionaries.map((d) => d.name)).toEqual(['Echo', 'delta']);
    expect(newest.hasMore).toBe(true);
  });
});

describe('locators to rules (the front door) and the workspace default list', () => {
  it('resolves versions in order, the latest when none is named, and the workspace default when a request names none', async () => {
    const owner = await signUpWithApiKey(t.app);
    const account = { key: owner.apiKey };
    const made = async (name: string, rules: unknown[]) =>
      (
        await callAs(t.app, account, 'POST', '/v1/pronunciation-dictionaries/add-from-rules', { name, rules })
      ).json() as {
        id: string;
        version_id: string;
      };
    const one = await made('One', [{ type: 'alias', string_to_replace: 'UN', alias: 'United Nations' }]);
    const two = await made('Two', [
      { type: 'phoneme', string_to_replace: 'tomato', phoneme: 'T AH0 M EY1 T OW2', alphabet: 'cmu-arpabet' },
    ]);
    const changed = await callAs(
      t.app,
      account,
      'POST',
      `/v1/pronunciation-dictionaries/${one.id}/set-rules`,
      {
        rules: [{ type: 'alias', string_to_replace: 'UN', alias: 'the U.N.', case_sensitive: true }],
      },
    );
    expect(changed.statusCode).toBe(200);
    const deps = dictionaryDepsOf(t.deps);
    const rules = await pronunciationRulesFor(deps, owner.workspaceId, [
      { pronunciation_dictionary_id: two.id },
      { pronunciation_dictionary_id: one.id, version_id: one.version_id },
      { pronunciation_dictionary_id: one.id },
    ]);
    expect(rules).toEqual([
      { type: 'phoneme', string_to_replace: 'tomato', phoneme: 'T AH0 M EY1 T OW2', alphabet: 'cmu-arpabet' },
      { type: 'alias', string_to_replace: 'UN', alias: 'United Nations' },
      { type: 'alias', string_to_replace: 'UN', alias: 'the U.N.', case_sensitive: true },
    ]);
    // No default yet: a request naming none has no rules.
    expect(await pronunciationRulesFor(deps, owner.workspaceId, undefined)).toEqual([]);
    const setDefault = await callAs(t.app, account, 'PUT', '/v1/workspace/pronunciation-dictionaries', {
      pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: two.id }],
    });
    expect(setDefault.json()).toEqual({
      pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: two.id }],
    });
    expect(
      (await callAs(t.app, account, 'GET', '/v1/workspace')).json().pronunciation_dictionary_locators,
    ).toEqual([{ pronunciation_dictionary_id: two.id }]);
    expect(await pronunciationRulesFor(deps, owner.workspaceId, null)).toHaveLength(1);
    // An empty list is "none", not "the default".
    expect(await pronunciationRulesFor(deps, owner.workspaceId, [])).toEqual([]);

    // A text-to-speech plan carries them: named, else the workspace's.
    const who = { userId: owner.userId, workspaceId: owner.workspaceId };
    const body = { text: 'Hello.', model_id: 'parla_v1', apply_text_normalization: 'auto' as const };
    const voiceId = premadeVoiceId('Sarah');
    const named = await prepareSpeech(ttsDepsOf(t.deps), who, {
      voiceId,
      body: { ...body, pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: one.id }] },
    });
    expect(named.request.pronunciation).toEqual([
      { type: 'alias', string_to_replace: 'UN', alias: 'the U.N.', case_sensitive: true },
    ]);
    const fallback = await prepareSpeech(ttsDepsOf(t.deps), who, { voiceId, body });
    expect(fallback.request.pronunciation?.[0]).toMatchObject({ string_to_replace: 'tomato' });
    const none = await prepareSpeech(ttsDepsOf(t.deps), who, {
      voiceId,
      body: { ...body, pronunciation_dictionary_locators: [] },
    });
    expect(none.request.pronunciation).toBeUndefined();
  });

  it('speaks with a dictionary named through the official client, charging as usual', async () => {
    const dictionary = await a.sdk.pronunciationDictionaries.createFromRules({
      name: 'Speak',
      rules: [{ type: 'alias', stringToReplace: 'UN', alias: 'United Nations' }],
    });
    const locators = [{ pronunciationDictionaryId: dictionary.id, versionId: dictionary.versionId }];
    const audio = await readAll(
      await a.sdk.textToSpeech.convert(premadeVoiceId('Sarah'), {
        text: 'The UN.',
        modelId: 'parla_v1',
        outputFormat: 'mp3_22050_32',
        pronunciationDictionaryLocators: locators,
      }),
    );
    expect(audio.byteLength).toBeGreaterThan(500);
    expect(await characterCountOf(t.deps.database.db, a.workspaceId)).toBe('The UN.'.length);
  });
});
