import type { KnowledgeBaseDocumentSummary } from '@parla/contracts';
import { fireEvent, getDefaultNormalizer, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, json } from '../test/billing-fixture';
import { makeDocument, makeDocumentSummary } from '../test/convai-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

const PATH = '/app/conversational-ai/knowledge-base';
const listPage = (documents: KnowledgeBaseDocumentSummary[]) =>
  json({ documents, next_cursor: null, has_more: false });
const overview = () =>
  json({
    total_used_bytes: 2048,
    total_max_bytes: 100 * 1024 * 1024,
    models: [],
    search: 'full_text',
    embeddings: 'not_configured',
    message: 'Full-text only.',
  });
const ragIndexes = (status = 'succeeded') =>
  json({
    indexes: [
      {
        id: 'd1_e5_mistral_7b_instruct',
        model: 'e5_mistral_7b_instruct',
        status,
        progress_percentage: 100,
        document_model_index_usage: { used_bytes: 2048 },
        search: 'full_text',
        embeddings: 'not_configured',
        message: 'Indexed for full-text search (2 passages). No vector embeddings.',
      },
    ],
  });

afterEach(cleanUpWorkspaceTest);

describe('/app/conversational-ai/knowledge-base', () => {
  it('adds a first document from text, then shows its extracted text, passages and index state', async () => {
    const documents: KnowledgeBaseDocumentSummary[] = [];
    const calls = stubWorkspaceApi({
      'GET /v1/convai/knowledge-base': () => listPage(documents),
      'GET /v1/convai/knowledge-base/rag-index': overview,
      'POST /v1/convai/knowledge-base/text': () => {
        documents.push(makeDocumentSummary());
        return json({ id: 'd1', name: 'Opening hours' });
      },
      'GET /v1/convai/knowledge-base/d1': () =>
        json(
          makeDocument({
            extracted_inner_html: '<p>We open at 9.</p><script>bad()</script><p>We close at 5.</p>',
          }),
        ),
      'GET /v1/convai/knowledge-base/d1/rag-index': () => ragIndexes(),
      'GET /v1/convai/knowledge-base/d1/dependent-agents': () =>
        json({
          agents: [
            {
              type: 'available',
              id: 'a1',
              name: 'Front desk',
              created_at_unix_secs: 1_790_000_000,
              access_level: 'admin',
            },
          ],
          next_cursor: null,
          has_more: false,
        }),
      'GET /v1/convai/knowledge-base/d1/chunks': () =>
        json({
          chunks: [
            { id: 'k1', name: '', content: 'We open at 9.' },
            { id: 'k2', name: '', content: 'We close at 5.' },
          ],
          next_cursor: null,
        }),
    });
    renderApp(PATH);
    expect(await screen.findByText('No documents yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add your first document' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a document' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Text' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add document' }));
    expect(within(dialog).getByText('The text is empty.')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/knowledge-base/text')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Document text'), {
      target: { value: 'We open at 9. We close at 5.' },
    });
    fireEvent.change(within(dialog).getByLabelText('Name (optional)'), {
      target: { value: ' Opening hours ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add document' }));

    // The new document opens in the side panel.
    const panel = await screen.findByRole('dialog', { name: 'Document' });
    expect(callsTo(calls, 'POST /v1/convai/knowledge-base/text')[0]?.body).toEqual({
      text: 'We open at 9. We close at 5.',
      name: 'Opening hours',
    });
    // Block by block, as the agent reads it; the script is not text.
    expect(
      await within(panel).findByText('We open at 9.\nWe close at 5.', {
        normalizer: getDefaultNormalizer({ collapseWhitespace: false }),
      }),
    ).toBeTruthy();
    expect(within(panel).queryByText(/bad\(\)/)).toBeNull();
    expect(await within(panel).findByText('Indexed')).toBeTruthy();
    expect(within(panel).getByText(/No vector embeddings/)).toBeTruthy();
    expect((await within(panel).findByRole('link', { name: 'Front desk' })).getAttribute('href')).toBe(
      '/app/conversational-ai/agents/a1',
    );
    fireEvent.click(within(panel).getByRole('radio', { name: 'Passages' }));
    expect(await within(panel).findByText('We close at 5.')).toBeTruthy();
    expect(within(panel).getByText('Passage 2')).toBeTruthy();

    fireEvent.keyDown(panel, { key: 'Escape' });
    const list = await screen.findByRole('list', { name: 'Documents' });
    expect(within(list).getByRole('button', { name: 'Opening hours' })).toBeTruthy();
  }, 20_000);

  it('refuses a file of another type before uploading, uploads a dropped PDF, and shows the API’s refusal of a page', async () => {
    const calls = stubWorkspaceApi({
      'GET /v1/convai/knowledge-base': () => listPage([]),
      'GET /v1/convai/knowledge-base/rag-index': overview,
      'POST /v1/convai/knowledge-base/file': () => json({ id: 'd2', name: 'Menu' }),
      'GET /v1/convai/knowledge-base/d2': () =>
        json(makeDocument({ id: 'd2', name: 'Menu', type: 'file', filename: 'menu.pdf' })),
      'GET /v1/convai/knowledge-base/d2/rag-index': () => ragIndexes(),
      'POST /v1/convai/knowledge-base/url': () =>
        apiError(
          400,
          'invalid_request',
          'The address 10.0.0.5 is on a private network; the operator has not allowed it (KB_URL_PRIVATE_HOSTS).',
        ),
    });
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Add document' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a document' });
    const zone = within(dialog).getByRole('region', { name: 'File to add' });

    fireEvent.drop(zone, {
      dataTransfer: { files: [new File(['ID3'], 'song.mp3', { type: 'audio/mpeg' })] },
    });
    expect(within(dialog).getByText(/song\.mp3 is not a file the knowledge base reads/)).toBeTruthy();

    const pdf = new File(['%PDF-1.4'], 'menu.pdf', { type: 'application/pdf' });
    fireEvent.drop(zone, { dataTransfer: { files: [pdf] } });
    expect(within(dialog).getByText('menu.pdf')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add document' }));
    await screen.findByRole('dialog', { name: 'Document' });
    const upload = vi
      .mocked(fetch)
      .mock.calls.find(
        ([url, init]) => String(url) === '/v1/convai/knowledge-base/file' && init?.method === 'POST',
      );
    const form = upload?.[1]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('file') as File).name).toBe('menu.pdf');
    expect(form.get('name')).toBeNull();
    expect(callsTo(calls, 'POST /v1/convai/knowledge-base/file')).toHaveLength(1);

    fireEvent.keyDown(await screen.findByRole('dialog', { name: 'Document' }), { key: 'Escape' });
    fireEvent.click(await screen.findByRole('button', { name: 'Add document' }));
    const again = await screen.findByRole('dialog', { name: 'Add a document' });
    fireEvent.click(within(again).getByRole('radio', { name: 'Web page' }));
    fireEvent.change(within(again).getByLabelText('Page address'), { target: { value: 'intranet/help' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Add document' }));
    expect(within(again).getByText(/Enter a full address/)).toBeTruthy();
    fireEvent.change(within(again).getByLabelText('Page address'), {
      target: { value: 'http://10.0.0.5/help' },
    });
    fireEvent.click(within(again).getByRole('button', { name: 'Add document' }));
    expect(await within(again).findByText(/is on a private network/)).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/knowledge-base/url')[0]?.body).toEqual({
      url: 'http://10.0.0.5/help',
    });
  }, 20_000);

  it('filters by type and name, renames, and deletes a document agents use only after saying so', async () => {
    let documents = [
      makeDocumentSummary({
        id: 'd1',
        name: 'Returns policy',
        type: 'url',
        url: 'https://shop.example/returns',
        dependent_agents: [
          { type: 'available', id: 'a1', name: 'Front desk', created_at_unix_secs: 1, access_level: 'admin' },
        ],
      }),
    ];
    const calls = stubWorkspaceApi({
      'GET /v1/convai/knowledge-base': () => listPage(documents),
      'GET /v1/convai/knowledge-base/rag-index': overview,
      'PATCH /v1/convai/knowledge-base/d1': ({ body }) => {
        documents = documents.map((d) => ({ ...d, name: (body as { name: string }).name }));
        return json(makeDocument({ name: (body as { name: string }).name }));
      },
      'GET /v1/convai/knowledge-base/d1': () => json(makeDocument({ name: documents[0]?.name })),
      'GET /v1/convai/knowledge-base/d1/rag-index': () => ragIndexes(),
      'GET /v1/convai/knowledge-base/d1/dependent-agents': () =>
        json({ agents: documents[0]?.dependent_agents ?? [], next_cursor: null, has_more: false }),
      'DELETE /v1/convai/knowledge-base/d1': () => {
        documents = [];
        return json({});
      },
    });
    renderApp(PATH);
    const list = await screen.findByRole('list', { name: 'Documents' });
    expect(within(list).getByText(/shop\.example · 2 KB · .* · used by 1 agent/)).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: 'Web pages' }));
    await waitFor(() =>
      expect(callsTo(calls, 'GET /v1/convai/knowledge-base').at(-1)?.query.getAll('types')).toEqual(['url']),
    );
    fireEvent.change(screen.getByLabelText('Search documents'), { target: { value: 'returns' } });
    await waitFor(() =>
      expect(callsTo(calls, 'GET /v1/convai/knowledge-base').at(-1)?.query.get('search')).toBe('returns'),
    );

    fireEvent.click(within(list).getByRole('button', { name: 'Returns policy' }));
    const panel = await screen.findByRole('dialog', { name: 'Document' });
    fireEvent.click(await within(panel).findByRole('button', { name: 'Rename' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename document' });
    fireEvent.change(within(rename).getByLabelText('Name'), { target: { value: '  ' } });
    fireEvent.click(within(rename).getByRole('button', { name: 'Save' }));
    expect(within(rename).getByText('Give the document a name.')).toBeTruthy();
    fireEvent.change(within(rename).getByLabelText('Name'), { target: { value: 'Returns (2026)' } });
    fireEvent.click(within(rename).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename document' })).toBeNull());
    expect(callsTo(calls, 'PATCH /v1/convai/knowledge-base/d1')[0]?.body).toEqual({ name: 'Returns (2026)' });

    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Document' })).getByRole('button', { name: 'Delete' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Delete Returns (2026)?' });
    expect(await within(confirm).findByText(/An agent uses this document: it loses it/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo(calls, 'DELETE /v1/convai/knowledge-base/d1')).toHaveLength(1));
    expect(callsTo(calls, 'DELETE /v1/convai/knowledge-base/d1')[0]?.query.get('force')).toBe('true');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  }, 20_000);

  it('shows the list’s load error with a way to try again', async () => {
    let fail = true;
    stubWorkspaceApi({
      'GET /v1/convai/knowledge-base': () =>
        fail ? apiError(403, 'forbidden', 'Only editors may read the knowledge base.') : listPage([]),
      'GET /v1/convai/knowledge-base/rag-index': overview,
    });
    renderApp(PATH);
    expect(await screen.findByText('Only editors may read the knowledge base.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No documents yet')).toBeTruthy();
  }, 20_000);
});
