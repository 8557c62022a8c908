import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { makeVoice } from '../test/catalogue-fixture';
import { renderApp } from '../test/render-app';
import { makeStudioProject } from '../test/studio-fixture';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/studio';

/** The API: the list answers `projects()`; voices and models; else 404. */
function stubApi(projects: () => unknown[]) {
  setAccessToken('t1');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/studio/projects') return json({ projects: projects() });
      if (key === 'GET /v1/voices')
        return json({ voices: [makeVoice({ voice_id: 'narrator', name: 'Sarah' })] });
      if (key === 'GET /v1/models') return json([]);
      return apiError(404, 'not_found');
    }),
  );
}

/** An XMLHttpRequest the test answers by hand (the create call goes through XHR for its upload progress). */
class FakeXhr extends EventTarget {
  static sent: FakeXhr[] = [];
  upload = new EventTarget();
  status = 0;
  statusText = '';
  responseText = '';
  method = '';
  url = '';
  body: FormData | undefined;
  withCredentials = false;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  getAllResponseHeaders() {
    return '';
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new Event('load'));
  }
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  FakeXhr.sent = [];
});

describe('/app/studio', { timeout: 20_000 }, () => {
  it('shows the empty state, whose call opens the new-project dialog', async () => {
    stubApi(() => []);
    renderApp(PATH);
    expect(await screen.findByRole('heading', { name: 'Studio', level: 1 }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('No projects yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create your first project' }));
    expect(await screen.findByRole('dialog', { name: 'New project' })).toBeTruthy();
  });

  it('lists projects with their state, chapters and the progress of one converting', async () => {
    const { chapters: _c, ...converting } = makeStudioProject({
      project_id: 'p2',
      name: 'Converting Book',
      state: 'converting',
      chapters_order: ['c1', 'c2'],
    });
    const { chapters: _d, ...ready } = makeStudioProject({ last_conversion_date_unix: 1_780_000_000 });
    stubApi(() => [ready, converting]);
    renderApp(PATH);
    const list = await screen.findByRole('list', { name: 'Projects' }, { timeout: 5000 });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0] as HTMLElement)
        .getByRole('link', { name: 'My Book' })
        .getAttribute('href'),
    ).toBe('/app/studio/p1');
    expect(rows[0]?.textContent).toContain('Ready');
    expect(rows[0]?.textContent).toContain('1 chapter');
    expect(rows[0]?.textContent).toContain('Converted');
    expect(rows[1]?.textContent).toContain('Converting');
    expect(rows[1]?.textContent).toContain('2 chapters');
    expect(
      within(rows[1] as HTMLElement).getByRole('progressbar', { name: 'Converting Converting Book' }),
    ).toBeTruthy();
  });

  it('creates an empty project with its defaults, and shows the server’s refusal in its words', async () => {
    stubApi(() => []);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'New project' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'New project' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Empty' }));
    // Without a name, nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create project' }));
    expect(await within(dialog).findByText('The project needs a name.')).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(0);

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Notes' } });
    fireEvent.click(within(dialog).getByText('Audiobook details'));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Author' }), { target: { value: 'Ada' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Genres/ }), {
      target: { value: 'fantasy, adventure' },
    });
    fireEvent.click(within(dialog).getByRole('switch', { name: /ACX normalisation/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const sent = FakeXhr.sent[0] as FakeXhr;
    expect(`${sent.method} ${sent.url}`).toBe('POST /v1/studio/projects');
    expect(sent.body?.get('name')).toBe('Notes');
    expect(sent.body?.get('default_paragraph_voice_id')).toBeTruthy();
    expect(sent.body?.get('quality_preset')).toBe('standard');
    expect(sent.body?.get('from_document')).toBeNull();
    expect(sent.body?.get('author')).toBe('Ada');
    expect(sent.body?.getAll('genres')).toEqual(['fantasy', 'adventure']);
    expect(sent.body?.get('acx_volume_normalization')).toBe('true');
    expect(sent.body?.get('mature_content')).toBe('false');
    const limit =
      "You have reached your plan's limit of 3 Studio projects. Delete a project or upgrade your plan to create another.";
    sent.respond(403, { detail: { status: 'studio_project_limit', message: limit } });
    expect(await within(dialog).findByText(limit)).toBeTruthy();
  });

  it('imports a document: the file goes last, and the project is named after it unless named', async () => {
    stubApi(() => []);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'New project' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'New project' });
    const book = new File(['<html></html>'], 'The Hobbit.epub', { type: 'application/epub+zip' });
    fireEvent.change(within(dialog).getByLabelText('Document file'), { target: { files: [book] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const body = (FakeXhr.sent[0] as FakeXhr).body as FormData;
    expect(body.get('name')).toBe('The Hobbit');
    expect((body.get('from_document') as File).name).toBe('The Hobbit.epub');
    expect([...body.keys()].at(-1)).toBe('from_document');
  });
});
