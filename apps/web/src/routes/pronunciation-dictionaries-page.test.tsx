import type { DictionaryWithRules, PronunciationRule } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import {
  type ApiCall,
  callsTo,
  cleanUpWorkspaceTest,
  makeWorkspaceSummary,
  stubWorkspaceApi,
} from '../test/workspace-fixture';

const PATH = '/app/pronunciation-dictionaries';

/** A workspace's dictionaries kept by the stubbed server: each change a new version, as the API does. */
function fakeServer(initial: { name: string; rules: PronunciationRule[] }[] = []) {
  let version = 0;
  const dictionaries = new Map<string, DictionaryWithRules>();
  let defaults: { pronunciation_dictionary_id: string }[] = [];
  const add = (name: string, rules: PronunciationRule[]) => {
    const id = `pd${dictionaries.size + 1}`;
    version += 1;
    dictionaries.set(id, {
      id,
      name,
      rules,
      latest_version_id: `v${version}`,
      latest_version_rules_num: rules.length,
      permission_on_resource: 'admin',
      created_by: 'u1',
      creation_time_unix: 1_750_000_000,
      archived_time_unix: null,
      description: null,
    });
    return dictionaries.get(id) as DictionaryWithRules;
  };
  for (const d of initial) add(d.name, d.rules);
  const setRules = (id: string, rules: PronunciationRule[]) => {
    const d = dictionaries.get(id) as DictionaryWithRules;
    version += 1;
    dictionaries.set(id, {
      ...d,
      rules,
      latest_version_id: `v${version}`,
      latest_version_rules_num: rules.length,
    });
    return json({ id, version_id: `v${version}`, version_rules_num: rules.length });
  };
  const metadata = ({ rules: _rules, ...rest }: DictionaryWithRules) => rest;
  const handlers: Record<string, (call: ApiCall) => Response> = {
    'GET /v1/pronunciation-dictionaries': (call) =>
      json({
        pronunciation_dictionaries: [...dictionaries.values()]
          .filter((d) => call.query.get('include_archived') === 'true' || d.archived_time_unix === null)
          .map(metadata),
        next_cursor: null,
        has_more: false,
      }),
    'POST /v1/pronunciation-dictionaries/add-from-rules': ({ body }) => {
      const made = add((body as { name: string }).name, []);
      return json({
        id: made.id,
        name: made.name,
        created_by: 'u1',
        creation_time_unix: 1_750_000_000,
        version_id: made.latest_version_id,
        version_rules_num: 0,
        description: null,
        permission_on_resource: 'admin',
      });
    },
    'GET /v1/workspace/pronunciation-dictionaries': () =>
      json({ pronunciation_dictionary_locators: defaults }),
    'PUT /v1/workspace/pronunciation-dictionaries': ({ body }) => {
      defaults = (body as { pronunciation_dictionary_locators: typeof defaults })
        .pronunciation_dictionary_locators;
      return json({ pronunciation_dictionary_locators: defaults });
    },
  };
  for (const id of ['pd1', 'pd2', 'pd3']) {
    handlers[`GET /v1/pronunciation-dictionaries/${id}`] = () =>
      dictionaries.has(id) ? json(dictionaries.get(id)) : apiError(404, 'pronunciation_dictionary_not_found');
    handlers[`POST /v1/pronunciation-dictionaries/${id}/add-rules`] = ({ body }) => {
      const added = (body as { rules: PronunciationRule[] }).rules;
      const kept = (dictionaries.get(id)?.rules ?? []).filter(
        (r) => !added.some((a) => a.string_to_replace === r.string_to_replace),
      );
      return setRules(id, [...kept, ...added]);
    };
    handlers[`POST /v1/pronunciation-dictionaries/${id}/remove-rules`] = ({ body }) => {
      const gone = (body as { rule_strings: string[] }).rule_strings;
      return setRules(
        id,
        (dictionaries.get(id)?.rules ?? []).filter((r) => !gone.includes(r.string_to_replace)),
      );
    };
    handlers[`PATCH /v1/pronunciation-dictionaries/${id}`] = ({ body }) => {
      const change = body as { name?: string; archived?: boolean };
      const d = dictionaries.get(id) as DictionaryWithRules;
      const next = {
        ...d,
        ...(change.name ? { name: change.name } : {}),
        ...(change.archived !== undefined
          ? { archived_time_unix: change.archived ? 1_760_000_000 : null }
          : {}),
      };
      dictionaries.set(id, next);
      return json(metadata(next));
    };
  }
  return { handlers, dictionaries };
}

afterEach(cleanUpWorkspaceTest);

describe('/app/pronunciation-dictionaries', () => {
  it('starts empty, creates a dictionary, adds an alias and a phoneme rule (checked first) and removes one', async () => {
    const server = fakeServer();
    const calls = stubWorkspaceApi(server.handlers);
    renderApp(PATH);
    expect(await screen.findByText('No dictionaries yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create your first dictionary' }));
    const dialog = await screen.findByRole('dialog', { name: 'New pronunciation dictionary' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Give the dictionary a name.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Acronyms ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('heading', { name: 'Acronyms' })).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/pronunciation-dictionaries/add-from-rules')[0]?.body).toEqual({
      name: 'Acronyms',
      description: null,
      rules: [],
    });
    expect(screen.getByText('No rules yet: add the first one above.')).toBeTruthy();

    const form = screen.getByRole('form', { name: 'Add a rule' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(within(form).getByText('Enter the word or phrase to replace.')).toBeTruthy();
    expect(within(form).getByText('Enter what to say instead.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Word or phrase'), { target: { value: 'UN' } });
    fireEvent.change(within(form).getByLabelText('Say it as'), { target: { value: 'United Nations' } });
    fireEvent.click(within(form).getByRole('switch', { name: 'Case sensitive' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('United Nations')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/pronunciation-dictionaries/pd1/add-rules')[0]?.body).toEqual({
      rules: [
        {
          type: 'alias',
          string_to_replace: 'UN',
          alias: 'United Nations',
          case_sensitive: true,
          word_boundaries: true,
        },
      ],
    });

    fireEvent.click(within(form).getByRole('radio', { name: 'Phoneme' }));
    fireEvent.click(within(form).getByRole('radio', { name: 'CMU ARPAbet' }));
    fireEvent.change(within(form).getByLabelText('Word or phrase'), { target: { value: 'tomato' } });
    fireEvent.change(within(form).getByLabelText('Pronunciation'), { target: { value: 'T AH0 QQ1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(within(form).getByText(/"QQ1" is not a CMU ARPAbet phone/)).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/pronunciation-dictionaries/pd1/add-rules')).toHaveLength(1);
    fireEvent.change(within(form).getByLabelText('Pronunciation'), {
      target: { value: 'T AH0 M AA1 T OW2' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('/T AH0 M AA1 T OW2/')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Acronyms' })).getByText('2 rules')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove the rule for “UN”' }));
    await waitFor(() => expect(screen.queryByText('United Nations')).toBeNull());
    expect(callsTo(calls, 'POST /v1/pronunciation-dictionaries/pd1/remove-rules')[0]?.body).toEqual({
      rule_strings: ['UN'],
    });
  });

  it('“Hear it” speaks the word through text to speech with this dictionary, unlogged', async () => {
    const server = fakeServer([
      { name: 'Food', rules: [{ type: 'alias', string_to_replace: 'tomato', alias: 'tomahto' }] },
    ]);
    const play = vi.fn(() => Promise.resolve());
    vi.stubGlobal(
      'Audio',
      class {
        play = play;
        pause() {}
        addEventListener() {}
      },
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    const calls = stubWorkspaceApi(server.handlers);
    // Any text-to-speech call answers audio.
    const fetchStub = vi.mocked(globalThis.fetch);
    const original = fetchStub.getMockImplementation();
    fetchStub.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.includes('/v1/text-to-speech/')) {
        calls.push({
          key: `POST ${url.split('?')[0]}`,
          query: new URLSearchParams(url.split('?')[1]),
          body: JSON.parse(String(init?.body)),
        });
        return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'audio/mpeg' } });
      }
      return (original as (url: string, init?: RequestInit) => Promise<Response>)(url, init);
    });
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: /Food/ }, { timeout: 5000 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Hear “tomato”' }));
    await waitFor(() => expect(play).toHaveBeenCalled());
    const spoken = calls.find((c) => c.key.startsWith('POST /v1/text-to-speech/'));
    expect(spoken?.body).toEqual({
      text: 'tomato',
      pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'pd1' }],
    });
    expect(spoken?.query.get('enable_logging')).toBe('false');
  });

  it('leaves the default list to the workspace’s admins: a member sees the switch, off and disabled', async () => {
    const server = fakeServer([{ name: 'A', rules: [] }]);
    stubWorkspaceApi({
      ...server.handlers,
      'GET /v1/workspace': () => json(makeWorkspaceSummary({ role: 'member', is_owner: false })),
    });
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: /^A.*rules/ }, { timeout: 5000 }));
    await screen.findByText('The workspace’s default list: only its admins change it.');
    const toggle = screen.getByRole('switch', { name: /Use for every request that names no dictionary/ });
    expect((toggle as HTMLInputElement).disabled).toBe(true);
  });

  it('makes a dictionary one of the workspace’s defaults, archives it and shows it among the archived', async () => {
    const server = fakeServer([
      { name: 'A', rules: [] },
      { name: 'B', rules: [] },
      { name: 'C', rules: [] },
    ]);
    const calls = stubWorkspaceApi(server.handlers);
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: /^A.*rules/ }, { timeout: 5000 }));
    const toggle = await screen.findByRole('switch', {
      name: /Use for every request that names no dictionary/,
    });
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(callsTo(calls, 'PUT /v1/workspace/pronunciation-dictionaries')[0]?.body).toEqual({
        pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'pd1' }],
      }),
    );
    expect(await screen.findByText('Default')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Archive' }));
    await waitFor(() =>
      expect(callsTo(calls, 'PATCH /v1/pronunciation-dictionaries/pd1')[0]?.body).toEqual({ archived: true }),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: /^A.*rules/ })).toBeNull());
    fireEvent.click(screen.getByRole('switch', { name: 'Show archived' }));
    expect(await screen.findByText('Archived')).toBeTruthy();
  });

  it('says why the list could not load and loads it again', async () => {
    let fail = true;
    const server = fakeServer([{ name: 'Names', rules: [] }]);
    stubWorkspaceApi({
      ...server.handlers,
      'GET /v1/pronunciation-dictionaries': (call) =>
        fail
          ? apiError(422, 'invalid_request', 'The list could not be read.')
          : (server.handlers['GET /v1/pronunciation-dictionaries'] as (c: ApiCall) => Response)(call),
    });
    renderApp(PATH);
    expect(await screen.findByText('The list could not be read.', {}, { timeout: 5000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: /Names/ })).toBeTruthy();
  });
});
