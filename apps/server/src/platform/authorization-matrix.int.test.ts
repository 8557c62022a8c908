import { encodeWav } from '@parla/audio';
import * as contracts from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioNativeProjects } from '../modules/audio-native/audio-native.tables';
import { conversations } from '../modules/conversations/conversations.tables';
import { dubs } from '../modules/dubbing/dubbing.tables';
import { notifyUser } from '../modules/notifications/notifications.service';
import { userMessageEvents } from '../modules/notifications/notifications.tables';
import { transcripts } from '../modules/speech-to-text/speech-to-text.tables';
import {
  studioChapterSnapshots,
  studioChapters,
  studioProjectSnapshots,
  studioProjects,
} from '../modules/studio/studio.tables';
import { users } from '../modules/users/users.tables';
import { workspaces } from '../modules/workspaces/workspaces.tables';
import {
  callAs,
  characterCountOf,
  newSpeechAccount,
  premadeVoiceId,
  type SpeechAccount,
} from '../test/speech-fixtures';
import { createTestApp, type TestApp } from '../test/test-app';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../test/test-signals';

/*
 * The authorisation matrix (issue 8 item 2): workspace B tries every call that names a resource by id
 * with workspace A's ids — read, change, delete — and always gets 404 or 403, and A's resources are
 * unchanged afterwards. Every route of the contracts with an id in its path must be in the matrix or in
 * PUBLIC_OR_PERSONAL with its reason: a new route fails this test until it is added.
 */

/** Routes with an id in the path that are not a workspace's resource, and why. */
const PUBLIC_OR_PERSONAL: Record<string, string> = {
  getOutboxEmailRoute: 'the development mailbox (off in production)',
  getSharedItemRoute: 'a share link is public by design (history/voices §4)',
  getSharedItemAudioRoute: 'a share link is public by design (history/voices §4)',
  getAudioNativePlayerRoute:
    "the embedded player's config is public by design; its project's allowed origins bound who reads it (issue 30 item 4)",
  removeMfaWithBackupCodeRoute: "the caller's own backup code, not a resource id",
  // The built-in provider's hosted pages work as a card provider's do: the session's secret 32-character
  // id in the URL is the credential (no sign-in), for 24 hours (docs/areas/billing.md "The billing module").
  getHostedSessionRoute: 'a hosted billing page: its secret session id is the credential',
  submitCardRoute: 'a hosted billing page: its secret session id is the credential',
  authenticateSessionRoute: 'a hosted billing page: its secret session id is the credential',
  payInvoiceRoute: 'a hosted billing page: its secret session id is the credential',
  createPortalCardSessionRoute: 'a hosted billing page: its secret session id is the credential',
  completeConnectSessionRoute: 'a hosted billing page: its secret session id is the credential',
  conversationFeedbackRoute:
    "the official client posts it from the page without a key: the conversation's secret id is the credential",
};

let t: TestApp;
let baseUrl: string;
const db = () => t.deps.database.db;

interface Owned {
  account: SpeechAccount;
  publicUserId: string;
  keyId: string;
  historyItemId: string;
  voiceId: string;
  sampleId: string;
  collectionId: string;
  generatedVoiceId: string;
  pvcId: string;
  pvcSampleId: string;
  messageId: string;
  groupId: string;
  webhookId: string;
  transcriptId: string;
  documentId: string;
  chunkId: string;
  conversationId: string;
  agentId: string;
  toolId: string;
  secretId: string;
  testId: string;
  testFolderId: string;
  testInvocationId: string;
  mcpServerId: string;
  phoneNumberId: string;
  batchId: string;
  dubbingId: string;
  dictionaryId: string;
  dictionaryVersionId: string;
  studio: { projectId: string; chapterId: string; chapterSnapshotId: string; projectSnapshotId: string };
}
let a: Owned;
let b: SpeechAccount;
let wav: Buffer;

/** A dubbed dub of A's, written straight to its tables (making one for real takes the engines a while). */
async function privateDub(workspaceId: string, userId: string): Promise<string> {
  const id = `dub_private_${workspaceId.slice(0, 8)}`;
  await db()
    .insert(dubs)
    .values({
      id,
      workspaceId,
      userId,
      requestId: 'private',
      name: 'Private dub',
      status: 'dubbed',
      stage: 'done',
      sourceLangRequested: 'en',
      sourceLanguage: 'en',
      targetLanguages: ['es'],
      options: {
        numSpeakers: 0,
        watermark: false,
        startTime: null,
        endTime: null,
        highestResolution: false,
        dropBackgroundAudio: false,
        useProfanityFilter: false,
        dubbingStudio: false,
        disableVoiceCloning: false,
        mode: 'automatic',
      },
      input: {
        kind: 'audio',
        fileName: 'private.wav',
        contentType: 'audio/mpeg',
        durationSec: 10,
        key: 'none',
      },
      credits: 167,
      expectedDurationSec: 16,
    });
  return id;
}

/** A Studio project of A's with a chapter and a converted snapshot, written straight to its tables. */
async function privateStudio(workspaceId: string, userId: string): Promise<Owned['studio']> {
  const ids = {
    projectId: `sp_private_${workspaceId.slice(0, 8)}`,
    chapterId: `sc_private_${workspaceId.slice(0, 8)}`,
    chapterSnapshotId: `scs_private_${workspaceId.slice(0, 8)}`,
    projectSnapshotId: `sps_private_${workspaceId.slice(0, 8)}`,
  };
  await db()
    .insert(studioProjects)
    .values({
      id: ids.projectId,
      workspaceId,
      userId,
      name: 'Private project',
      defaultTitleVoiceId: premadeVoiceId('Sarah'),
      defaultParagraphVoiceId: premadeVoiceId('Sarah'),
      defaultModelId: 'parla_english_v1',
    });
  await db()
    .insert(studioChapters)
    .values({ id: ids.chapterId, projectId: ids.projectId, workspaceId, position: 0, name: 'Private' });
  await db().insert(studioChapterSnapshots).values({
    id: ids.chapterSnapshotId,
    projectId: ids.projectId,
    chapterId: ids.chapterId,
    workspaceId,
    name: 'Private',
    audioKey: 'none',
    durationSecs: 1,
  });
  await db()
    .insert(studioProjectSnapshots)
    .values({
      id: ids.projectSnapshotId,
      projectId: ids.projectId,
      workspaceId,
      name: 'Private',
      chapterSnapshotIds: [ids.chapterSnapshotId],
      durationSecs: 1,
    });
  // The same project is an Audio Native player (the public API's project_id is the Studio project's).
  await db().insert(audioNativeProjects).values({
    projectId: ids.projectId,
    workspaceId,
    textColor: '#000000',
    backgroundColor: '#FFFFFF',
    sessionizationMinutes: 30,
    createdAt: new Date(),
  });
  return ids;
}

async function creatorAccount(): Promise<SpeechAccount> {
  const account = await newSpeechAccount(t.app, baseUrl);
  await db().update(workspaces).set({ tier: 'creator' }).where(eq(workspaces.id, account.workspaceId));
  return account;
}

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '2', ENGINE_TIMEOUT_MS: '20000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  wav = encodeWav(await fliteSpeech('awb', TEN_SECONDS_OF_TEXT));
  const account = await creatorAccount();
  b = await creatorAccount();
  const call = (method: string, path: string, body?: unknown) => callAs(t.app, account, method, path, body);
  const spoken = await call('POST', `/v1/text-to-speech/${premadeVoiceId('Sarah')}`, {
    text: 'Private words.',
  });
  const historyItemId = spoken.headers['history-item-id'] as string;
  await call('GET', `/v1/history/${historyItemId}/share-link`);
  const keys = (await call('GET', '/v1/user/api-keys')).json() as { api_keys: { key_id: string }[] };
  const { voiceId } = await account.sdk.voices.ivc.create({
    name: 'Private voice',
    files: [new Blob([wav])],
  });
  const sampleId = (await account.sdk.voices.get(voiceId)).samples?.[0]?.sampleId ?? '';
  const collection = await call('POST', '/v1/voices/collections', { title: 'Private', voice_ids: [voiceId] });
  // German: designed on a classic base, not on Kokoro (measuring three blends takes seconds, and which
  // engine speaks a preview is not what is tested here).
  const design = await call('POST', '/v1/text-to-voice/design', {
    voice_description: 'A calm German narrator with a deep voice and a slow pace.',
  });
  const pvc = await account.sdk.voices.pvc.create({ name: 'Private pro', language: 'en' });
  const [pvcSample] = await account.sdk.voices.pvc.samples.create(pvc.voiceId, { files: [new Blob([wav])] });
  const group = await asUser(account, 'POST', '/v1/workspace/groups', { name: 'Private group' });
  // A public address that is never called: B's test delivery must be refused before any is sent.
  const webhook = await account.sdk.webhooks.create({
    settings: { authType: 'hmac', name: 'Private webhook', webhookUrl: 'https://192.0.43.10/hook' },
  });
  // A's agent needs signed URLs, so even its widget config is A's alone (a public agent's is anyone's).
  const secret = await account.sdk.conversationalAi.secrets.create({ name: 'Private secret', value: 'x' });
  const tool = await account.sdk.conversationalAi.tools.create({
    toolConfig: { type: 'client', name: 'private_tool', description: 'Private.' },
  });
  const agent = await account.sdk.conversationalAi.agents.create({
    name: 'Private agent',
    conversationConfig: { agent: { prompt: { toolIds: [tool.id] } } },
    platformSettings: { auth: { enableAuth: true } },
  });
  // A public address that is never called: B is refused before any connection.
  const mcpServer = await account.sdk.conversationalAi.mcpServers.create({
    config: { url: 'https://192.0.43.10/mcp', name: 'Private MCP server' },
  });
  const phone = await account.sdk.conversationalAi.phoneNumbers.create({
    provider: 'twilio',
    phoneNumber: '+14155550100',
    label: 'Private line',
    sid: `AC${'0'.repeat(32)}`,
    token: 'private-twilio-token',
  });
  // Scheduled for tomorrow: nothing is dialled (the test app runs no worker anyway).
  const batch = await account.sdk.conversationalAi.batchCalls.create({
    callName: 'Private batch',
    agentId: agent.agentId,
    agentPhoneNumberId: phone.phoneNumberId,
    recipients: [{ phoneNumber: '+14155550199' }],
    scheduledTimeUnix: Math.floor(Date.now() / 1000) + 86_400,
  });
  const [ws] = await db().select().from(workspaces).where(eq(workspaces.id, account.workspaceId));
  // A's transcript, written as a finished transcription keeps one (the recogniser is not what is tested here).
  const transcriptId = 'matrixTranscript0001';
  await db()
    .insert(transcripts)
    .values({
      id: transcriptId,
      workspaceId: account.workspaceId,
      userId: ws?.ownerId ?? null,
      name: 'Private transcript',
      status: 'completed',
      progress: 1,
      modelId: 'parla_stt_v1',
      options: {
        languageCode: undefined,
        tagAudioEvents: true,
        numSpeakers: undefined,
        timestampsGranularity: 'word',
        diarize: false,
        diarizationThreshold: undefined,
        useMultiChannel: false,
        multichannelOutputStyle: 'separate',
        additionalFormats: [],
      },
      languageCode: 'eng',
      durationSecs: 1,
      channels: 1,
      transcript: {
        language_code: 'eng',
        language_probability: 1,
        text: 'Private words.',
        words: [{ text: 'Private words.', start: 0, end: 1, type: 'word', logprob: 0 }],
      },
      requestId: 'matrix',
    });
  // A's conversation with its agent, as a finished one is kept (the socket is not what is tested here).
  const conversationId = 'conv_matrixConversation01';
  await db().insert(conversations).values({
    id: conversationId,
    workspaceId: account.workspaceId,
    agentId: agent.agentId,
    agentName: 'Private agent',
    status: 'done',
    authorizationMethod: 'authorization_header',
    responseMode: 'knowledge_base',
    transcript: [],
  });
  const document = await account.sdk.conversationalAi.knowledgeBase.documents.createFromText({
    text: 'Private knowledge.',
    name: 'Private document',
  });
  const [chunk] = (
    await account.sdk.conversationalAi.knowledgeBase.documents.chunks.list(document.id, {
      embeddingModel: 'e5_mistral_7b_instruct',
    })
  ).chunks;
  // A's agent test, its folder and an invocation of it (no worker runs here: it stays pending).
  const agentTest = await account.sdk.conversationalAi.tests.create({
    type: 'llm',
    name: 'Private test',
    chatHistory: [{ role: 'user', message: 'Hello', timeInCallSecs: 0 }],
    successCondition: 'Greets.',
  });
  const testFolder = await account.sdk.conversationalAi.tests.folders.create({ name: 'Private folder' });
  const invocation = await account.sdk.conversationalAi.agents.runTests(agent.agentId, {
    tests: [{ testId: agentTest.id }],
  });
  const dictionary = await account.sdk.pronunciationDictionaries.createFromRules({
    name: 'Private dictionary',
    rules: [{ type: 'alias', stringToReplace: 'Private', alias: 'Secret' }],
  });
  const [owner] = await db()
    .select({ publicUserId: users.publicUserId })
    .from(users)
    .where(eq(users.id, ws?.ownerId ?? ''));
  a = {
    account,
    publicUserId: owner?.publicUserId ?? '',
    keyId: keys.api_keys[0]?.key_id ?? '',
    historyItemId,
    voiceId,
    sampleId,
    collectionId: collection.json().collection_id as string,
    generatedVoiceId: design.json().previews[0].generated_voice_id as string,
    pvcId: pvc.voiceId,
    pvcSampleId: pvcSample?.sampleId ?? '',
    // A message under A's bell: messages are a user's own, so B's calls must not reach it either.
    groupId: group.json().id as string,
    webhookId: webhook.webhookId,
    messageId: await notifyUser(db(), ws?.ownerId ?? '', { severity: 'info', title: 'Private message' }),
    transcriptId,
    documentId: document.id,
    chunkId: chunk?.id ?? '',
    conversationId,
    agentId: agent.agentId,
    toolId: tool.id,
    secretId: secret.secretId,
    testId: agentTest.id,
    testFolderId: testFolder.id,
    testInvocationId: invocation.id,
    mcpServerId: mcpServer.id,
    phoneNumberId: phone.phoneNumberId,
    batchId: batch.id,
    dubbingId: await privateDub(account.workspaceId, ws?.ownerId ?? ''),
    dictionaryId: dictionary.id,
    dictionaryVersionId: dictionary.versionId,
    studio: await privateStudio(account.workspaceId, ws?.ownerId ?? ''),
  };
  for (const [name, value] of Object.entries(a))
    if (typeof value === 'string' && !value) throw new Error(`setup: no ${name}`);
}, 120_000);
afterAll(() => t.close());

type Route = { method: string; path: string; body?: unknown };

/**
 * A call with the account's signed-in session (not its API key): billing and security calls refuse API
 * keys outright, which would hide whether they check whose resource it is.
 */
const asUser = (account: SpeechAccount, method: string, url: string, body?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${account.token}` },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });

/** Every route descriptor of the contracts that names something by id in its path. */
const idRoutes = Object.entries(contracts as Record<string, unknown>).filter(
  (entry): entry is [string, Route] =>
    typeof entry[1] === 'object' &&
    entry[1] !== null &&
    'method' in entry[1] &&
    'path' in entry[1] &&
    String((entry[1] as Route).path).includes(':') &&
    // A single-use token's type names a kind of socket, not anything of a workspace's.
    !String((entry[1] as Route).path).includes(':token_type'),
);

/** The path parameters, from A's resources (a professional clone's calls get the PVC voice). */
function fill(path: string): string {
  const pvc = path.startsWith('/v1/voices/pvc/');
  const studio = path.startsWith('/v1/studio/') || path.startsWith('/v1/audio-native/');
  const values: Record<string, string> = {
    history_item_id: a.historyItemId,
    voice_id: pvc ? a.pvcId : a.voiceId,
    sample_id: pvc ? a.pvcSampleId : a.sampleId,
    speaker_id: 'speaker_0',
    collection_id: a.collectionId,
    generated_voice_id: a.generatedVoiceId,
    key_id: a.keyId,
    public_user_id: a.publicUserId,
    message_id: a.messageId,
    group_id: a.groupId,
    webhook_id: a.webhookId,
    transcription_id: a.transcriptId,
    documentation_id: a.documentId,
    conversation_id: a.conversationId,
    chunk_id: a.chunkId,
    rag_index_id: `${a.documentId}_e5_mistral_7b_instruct`,
    agent_id: a.agentId,
    tool_id: a.toolId,
    secret_id: a.secretId,
    test_id: a.testId,
    folder_id: a.testFolderId,
    test_invocation_id: a.testInvocationId,
    mcp_server_id: a.mcpServerId,
    tool_name: 'private_tool',
    phone_number_id: a.phoneNumberId,
    batch_id: a.batchId,
    dubbing_id: a.dubbingId,
    project_id: studio ? a.studio.projectId : a.dubbingId,
    chapter_id: a.studio.chapterId,
    chapter_snapshot_id: a.studio.chapterSnapshotId,
    project_snapshot_id: a.studio.projectSnapshotId,
    language_id: 'es',
    segment_id: 'segment_private',
    language: 'es',
    language_code: 'es',
    format_type: 'srt',
    file_id: 'source',
    // The workspace calls on a resource: A's voice (the query below names its type).
    resource_id: a.voiceId,
    pronunciation_dictionary_id: a.dictionaryId,
    version_id: a.dictionaryVersionId,
  };
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`no value for :${name} in ${path}`);
    return value;
  });
}

/** A valid body for each route that takes JSON, so the call reaches its authorisation, not validation. */
const BODIES: Record<string, unknown> = {
  submitHistoryFeedbackRoute: { thumbs_up: true },
  textToSpeechRoute: { text: 'Hello.' },
  textToSpeechStreamRoute: { text: 'Hello.' },
  textToSpeechStreamWithTimestampsRoute: { text: 'Hello.' },
  textToSpeechWithTimestampsRoute: { text: 'Hello.' },
  remixVoiceRoute: { voice_description: 'The same voice, a little higher please.' },
  editApiKeyRoute: { name: 'stolen' },
  updateWebhookRoute: { name: 'Stolen', is_disabled: true },
  editVoiceSettingsRoute: { stability: 0.1 },
  shareVoiceRoute: { enabled: true },
  addSharedVoiceRoute: { new_name: 'Stolen' },
  updateCollectionRoute: { title: 'Stolen' },
  editPvcRoute: { name: 'Stolen' },
  updatePvcSampleRoute: { file_name: 'stolen.wav' },
  trainPvcRoute: {},
  generateShareVideoRoute: {},
  recordUserMessageEventRoute: { event: 'clicked' },
  addWorkspaceGroupMemberRoute: { email: 'someone@example.test' },
  removeWorkspaceGroupMemberRoute: { email: 'someone@example.test' },
  shareWorkspaceResourceRoute: { role: 'admin', resource_type: 'voice', group_id: 'default' },
  unshareWorkspaceResourceRoute: { resource_type: 'voice', group_id: 'default' },
  updateTranscriptRoute: { name: 'Stolen', speaker_names: { speaker_0: 'Stolen' } },
  updateKnowledgeBaseDocumentRoute: { name: 'Stolen', content: 'Stolen.' },
  computeRagIndexRoute: { model: 'e5_mistral_7b_instruct' },
  updateAgentRoute: { name: 'Stolen' },
  updateToolRoute: { tool_config: { type: 'client', name: 'stolen', description: 'Stolen.' } },
  updateSecretRoute: { name: 'Stolen', value: 'stolen' },
  updateAgentTestRoute: {
    name: 'Stolen',
    success_condition: 'Stolen.',
    chat_history: [{ role: 'user', message: 'Stolen' }],
  },
  updateAgentTestFolderRoute: { name: 'Stolen' },
  runAgentTestsRoute: { tests: [{ test_id: 'test_stolen' }] },
  resubmitTestInvocationRoute: { test_run_ids: ['trun_stolen'], agent_id: 'agent_stolen' },
  updateMcpServerRoute: { description: 'Stolen' },
  updateMcpApprovalPolicyRoute: { approval_policy: 'auto_approve_all' },
  addMcpToolApprovalRoute: { tool_name: 'stolen', tool_description: 'Stolen.' },
  updatePhoneNumberRoute: { label: 'Stolen' },
  transcribeSegmentsRoute: { segments: [] },
  translateSegmentsRoute: { segments: [] },
  dubSegmentsRoute: { segments: [] },
  renderDubbingRoute: { render_type: 'mp3' },
  addDubbingLanguageRoute: { language: 'fr' },
  migrateSegmentsRoute: { segment_ids: ['segment_private'], speaker_id: 'speaker_private' },
  updateSegmentRoute: { text: 'Stolen' },
  createSpeakerRoute: { speaker_name: 'Stolen' },
  updateSpeakerRoute: { speaker_name: 'Stolen' },
  createSegmentRoute: { start_time: 0, end_time: 1 },
  addDubbingProjectLanguageRoute: { target_language: 'fr' },
  updateDictionaryRoute: { name: 'Stolen', archived: true },
  addDictionaryRulesRoute: { rules: [{ type: 'alias', string_to_replace: 'Stolen', alias: 'x' }] },
  removeDictionaryRulesRoute: { rule_strings: ['Private'] },
  setDictionaryRulesRoute: { rules: [] },
  updateStudioProjectRoute: {
    name: 'Stolen',
    default_title_voice_id: 'pMsXgVXv3BLzUgSXRplE',
    default_paragraph_voice_id: 'pMsXgVXv3BLzUgSXRplE',
  },
  studioDictionariesRoute: { pronunciation_dictionary_locators: [] },
  createStudioChapterRoute: { name: 'Stolen' },
  updateAudioNativeSettingsRoute: { title: 'Stolen', allowed_origins: ['https://stolen.example'] },
  updateStudioChapterRoute: { name: 'Stolen' },
};

/** Query strings a route needs to pass validation. */
const QUERIES: Record<string, string> = {
  getWorkspaceResourceRoute: '?resource_type=voice',
  exportTranscriptRoute: '?format=txt',
};

/** Multipart routes: the form each sends, with a real recording, so only authorisation can refuse it. */
const FORMS: Record<string, (form: FormData) => void> = {
  speechToSpeechRoute: (f) => f.append('audio', new Blob([wav]), 'a.wav'),
  speechToSpeechStreamRoute: (f) => f.append('audio', new Blob([wav]), 'a.wav'),
  editVoiceRoute: (f) => {
    f.append('name', 'Stolen');
    f.append('files', new Blob([wav]), 'a.wav');
  },
  addPvcSamplesRoute: (f) => f.append('files', new Blob([wav]), 'a.wav'),
  verifyPvcCaptchaRoute: (f) => f.append('recording', new Blob([wav]), 'a.wav'),
  pvcVerificationRoute: (f) => f.append('files', new Blob([wav]), 'id.wav'),
  updateStudioContentRoute: (f) => f.append('from_content_json', '[{"name":"Stolen","blocks":[]}]'),
  updateAudioNativeContentRoute: (f) => f.append('file', new Blob(['Stolen.']), 'stolen.txt'),
  uploadStudioCoverRoute: (f) =>
    f.append(
      'file',
      new Blob([
        Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
          'base64',
        ),
      ]),
      'cover.png',
    ),
};

async function asB(name: string, route: Route): Promise<number> {
  const url = fill(route.path) + (QUERIES[name] ?? '');
  const makeForm = FORMS[name];
  if (makeForm) {
    const form = new FormData();
    makeForm(form);
    const response = await fetch(`${baseUrl}${url}`, {
      method: route.method,
      headers: { authorization: `Bearer ${b.token}` },
      body: form,
    });
    await response.arrayBuffer();
    return response.status;
  }
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : (BODIES[name] ?? {});
  return (await asUser(b, route.method, url, body)).statusCode;
}

describe('authorisation matrix: workspace B with workspace A’s ids', () => {
  it('covers every route of the contracts that names a resource by id', () => {
    expect(idRoutes.length).toBeGreaterThan(40);
    for (const [name, route] of idRoutes) {
      if (PUBLIC_OR_PERSONAL[name]) continue;
      expect(() => fill(route.path), name).not.toThrow();
    }
  });

  it('refuses every read, change and delete with 404 or 403', async () => {
    const results: string[] = [];
    for (const [name, route] of idRoutes) {
      if (PUBLIC_OR_PERSONAL[name]) continue;
      const status = await asB(name, route);
      if (status !== 404 && status !== 403)
        results.push(`${route.method} ${route.path} (${name}) → ${status}`);
    }
    expect(results).toEqual([]);
  }, 120_000);

  it('by ids in the body or query too', async () => {
    const download = await callAs(t.app, b, 'POST', '/v1/history/download', {
      history_item_ids: [a.historyItemId],
    });
    expect([403, 404]).toContain(download.statusCode);
    const dialogue = await callAs(t.app, b, 'POST', '/v1/text-to-dialogue', {
      inputs: [{ text: 'Hello.', voice_id: a.voiceId }],
    });
    expect([403, 404]).toContain(dialogue.statusCode);
    const saveDesign = await callAs(t.app, b, 'POST', '/v1/text-to-voice', {
      voice_name: 'Stolen',
      voice_description: 'Stolen',
      generated_voice_id: a.generatedVoiceId,
    });
    expect([403, 404]).toContain(saveDesign.statusCode);
    const search = await callAs(t.app, b, 'GET', `/v2/voices?voice_ids=${a.voiceId}`);
    expect(search.json().voices).toEqual([]);
    const collection = await callAs(t.app, b, 'GET', `/v2/voices?collection_id=${a.collectionId}`);
    expect([403, 404]).toContain(collection.statusCode);
    const history = await callAs(t.app, b, 'GET', '/v1/history');
    expect(history.json().history).toEqual([]);
    const agent = await callAs(t.app, b, 'POST', '/v1/convai/agents/create', {
      conversation_config: { agent: { prompt: { mcp_server_ids: [a.mcpServerId] } } },
    });
    expect(agent.statusCode).toBe(422);
    const call = await callAs(t.app, b, 'POST', '/v1/convai/twilio/outbound-call', {
      agent_id: a.agentId,
      agent_phone_number_id: a.phoneNumberId,
      to_number: '+14155550199',
    });
    expect([403, 404]).toContain(call.statusCode);
    const registered = await callAs(t.app, b, 'POST', '/v1/convai/twilio/register-call', {
      agent_id: a.agentId,
      from_number: '+14155550199',
      to_number: '+14155550100',
    });
    expect([403, 404]).toContain(registered.statusCode);
    // A's pronunciation dictionary, named in B's speech or as B's workspace default.
    const locators = [{ pronunciation_dictionary_id: a.dictionaryId }];
    const speech = await callAs(t.app, b, 'POST', `/v1/text-to-speech/${premadeVoiceId('Sarah')}`, {
      text: 'Hello.',
      pronunciation_dictionary_locators: locators,
    });
    expect(speech.statusCode).toBe(404);
    const defaults = await callAs(t.app, b, 'PUT', '/v1/workspace/pronunciation-dictionaries', {
      pronunciation_dictionary_locators: locators,
    });
    expect(defaults.statusCode).toBe(404);
  });

  it("leaves A's resources as they were", async () => {
    const call = (method: string, path: string) => callAs(t.app, a.account, method, path);
    expect((await call('GET', `/v1/history/${a.historyItemId}`)).json()).toMatchObject({
      text: 'Private words.',
      feedback: null,
    });
    const mcpServer = await a.account.sdk.conversationalAi.mcpServers.get(a.mcpServerId);
    expect(mcpServer.config).toMatchObject({
      description: '',
      approvalPolicy: 'require_approval_all',
      toolApprovalHashes: [],
    });
    const voice = await a.account.sdk.voices.get(a.voiceId);
    expect(voice).toMatchObject({ name: 'Private voice', sharing: undefined });
    const dictionary = await a.account.sdk.pronunciationDictionaries.get(a.dictionaryId);
    expect(dictionary).toMatchObject({
      name: 'Private dictionary',
      latestVersionId: a.dictionaryVersionId,
      rules: [{ type: 'alias', stringToReplace: 'Private', alias: 'Secret' }],
    });
    expect(dictionary.archivedTimeUnix ?? null).toBeNull();
    expect(voice.samples).toHaveLength(1);
    expect((await a.account.sdk.voices.settings.get(a.voiceId)).stability).toBe(0.5);
    expect((await call('GET', `/v1/voices/collections/${a.collectionId}`)).json()).toMatchObject({
      title: 'Private',
      voice_ids: [a.voiceId],
    });
    const pvc = await a.account.sdk.voices.get(a.pvcId);
    expect(pvc).toMatchObject({ name: 'Private pro', fineTuning: { state: { parla_v1: 'not_started' } } });
    expect(pvc.samples).toHaveLength(1);
    const keys = (await call('GET', '/v1/user/api-keys')).json() as {
      api_keys: { key_id: string; name: string }[];
    };
    expect(keys.api_keys.find((k) => k.key_id === a.keyId)?.name).not.toBe('stolen');
    expect((await call('GET', `/v1/text-to-voice/${a.generatedVoiceId}/stream`)).statusCode).toBe(200);
    expect(await characterCountOf(db(), b.workspaceId)).toBe(0);
    const bell = (await asUser(a.account, 'GET', '/v1/user/messages')).json() as {
      messages: { message_id: string; has_been_read: boolean }[];
    };
    expect(bell.messages.find((m) => m.message_id === a.messageId)?.has_been_read).toBe(false);
    const events = await db()
      .select()
      .from(userMessageEvents)
      .where(eq(userMessageEvents.messageId, a.messageId));
    expect(events).toEqual([]);
    const groups = (await call('GET', '/v1/workspace/groups')).json();
    expect(groups[a.groupId]).toMatchObject({ name: 'Private group', members: [] });
    const webhooks = (await a.account.sdk.webhooks.list()).webhooks;
    expect(webhooks).toMatchObject([{ webhookId: a.webhookId, name: 'Private webhook', isDisabled: false }]);
    expect(
      (await call('GET', `/v1/speech-to-text/transcripts/${a.transcriptId}/details`)).json(),
    ).toMatchObject({
      name: 'Private transcript',
      speaker_names: {},
    });
    expect((await call('GET', `/v1/speech-to-text/transcripts/${a.transcriptId}`)).json()).toMatchObject({
      text: 'Private words.',
    });
    const listed = (await callAs(t.app, b, 'GET', '/v1/speech-to-text/transcripts')).json();
    expect(listed.transcripts).toEqual([]);
    const document = await a.account.sdk.conversationalAi.knowledgeBase.documents.get(a.documentId);
    expect(document).toMatchObject({ name: 'Private document', type: 'text' });
    expect(await a.account.sdk.conversationalAi.knowledgeBase.documents.getContent(a.documentId)).toBe(
      '<p>Private knowledge.</p>',
    );
    const kbSearch = (await callAs(t.app, b, 'GET', '/v1/convai/knowledge-base/search?query=private')).json();
    expect(kbSearch.results).toEqual([]);
    expect((await a.account.sdk.conversationalAi.conversations.get(a.conversationId)).agentName).toBe(
      'Private agent',
    );
    expect((await callAs(t.app, b, 'GET', '/v1/convai/conversations')).json().conversations).toEqual([]);
    const shares = (await call('GET', `/v1/workspace/resources/${a.voiceId}?resource_type=voice`)).json();
    expect(Object.values(shares.role_to_group_ids).flat()).toHaveLength(1);
    const tests = a.account.sdk.conversationalAi.tests;
    expect(await tests.get(a.testId)).toMatchObject({ name: 'Private test', successCondition: 'Greets.' });
    expect(await tests.folders.get(a.testFolderId)).toMatchObject({ name: 'Private folder' });
    expect((await tests.invocations.get(a.testInvocationId)).cancelled).toBe(false);
  });
});
