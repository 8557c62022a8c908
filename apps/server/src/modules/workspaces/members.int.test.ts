import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { encodeWav } from '@parla/audio';
import { ErrorResponse } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { linkIn, startSmtpServer } from '../../test/smtp-server';
import { premadeVoiceId } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../../test/test-signals';
import { users } from '../users/users.tables';
import { voiceCollections } from '../voices/voices.tables';
import { workspaceMembers, workspaces } from './workspaces.tables';

/*
 * Workspaces (issue 8 item 1): invitations by email over real SMTP, seats, roles, groups, sharing a
 * resource with a member or a group, removal and ownership — through the API and the official client.
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let baseUrl: string;
let wav: Buffer;
const PUBLIC_URL = 'http://parla.test:8080';
const PASSWORD = 'correct-horse-9';

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  wav = encodeWav(await fliteSpeech('awb', TEN_SECONDS_OF_TEXT));
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const client = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const toOf = (mail: ParsedMail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : '');
const statusOf = (res: { json(): unknown }) => ErrorResponse.parse(res.json()).detail.status;

interface Person {
  email: string;
  token: string;
  cookie: string;
  workspaceId: string;
  apiKey: string;
}

function call(person: Pick<Person, 'token'> | undefined, method: string, url: string, body?: unknown) {
  return t.app.inject({
    method: method as 'GET',
    url,
    remoteAddress: client(),
    headers: person ? { authorization: `Bearer ${person.token}` } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

async function signUp(tier?: 'growing_business' | 'scale_2024_08_10' | 'creator'): Promise<Person> {
  const email = `ws-${newId(8).toLowerCase()}@example.test`;
  const res = await call(undefined, 'POST', '/v1/auth/sign-up', { email, password: PASSWORD });
  expect(res.statusCode).toBe(201);
  const session = res.json() as { access_token: string; workspace_id: string };
  const refresh = res.cookies.find((c) => c.name === 'xi_refresh');
  const key = await call({ token: session.access_token }, 'POST', '/v1/user/api-keys', { name: 'k' });
  if (tier)
    await t.deps.database.db.update(workspaces).set({ tier }).where(eq(workspaces.id, session.workspace_id));
  return {
    email,
    token: session.access_token,
    cookie: `xi_refresh=${refresh?.value}`,
    workspaceId: session.workspace_id,
    apiKey: (key.json() as { xi_api_key: string }).xi_api_key,
  };
}

/** A token refresh (accounts §4: accepting an invite forces one): the new token names the current workspace. */
async function refresh(person: Person): Promise<Person> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/refresh',
    headers: { cookie: person.cookie },
  });
  expect(res.statusCode).toBe(200);
  const session = res.json() as { access_token: string; workspace_id: string };
  const next = res.cookies.find((c) => c.name === 'xi_refresh');
  return {
    ...person,
    token: session.access_token,
    workspaceId: session.workspace_id,
    cookie: next ? `xi_refresh=${next.value}` : person.cookie,
  };
}

/** The newest invitation mail to an address, once it arrived. */
async function inviteMail(address: string, n = 1): Promise<ParsedMail> {
  await expect
    .poll(() => smtp.received.filter((m) => toOf(m) === address).length, { timeout: 5000 })
    .toBeGreaterThanOrEqual(n);
  const mails = smtp.received.filter((m) => toOf(m) === address && /invited you/.test(m.subject ?? ''));
  return mails.at(-1) as ParsedMail;
}

const codeIn = (mail: ParsedMail) =>
  linkIn(mail.text, `${PUBLIC_URL}/app/settings/workspace-invites?`).searchParams.get('invite_code') ?? '';

/** Invites `invitee` into `admin`'s workspace and accepts through the mailed link; returns them refreshed. */
async function join(admin: Person, invitee: Person, extra: Record<string, unknown> = {}): Promise<Person> {
  const invited = await call(admin, 'POST', '/v1/workspace/invites/add', { email: invitee.email, ...extra });
  expect(invited.json()).toEqual({ status: 'ok' });
  const code = codeIn(await inviteMail(invitee.email));
  const accepted = await call(invitee, 'POST', '/v1/user/workspace-invites/accept', { invite_code: code });
  expect(accepted.json()).toEqual({ status: 'ok', workspace_id: admin.workspaceId });
  return refresh(invitee);
}

/** A new API key of the person's, made in the workspace they work in now. */
async function keyIn(person: Person): Promise<string> {
  const key = await call(person, 'POST', '/v1/user/api-keys', { name: 'here' });
  return (key.json() as { xi_api_key: string }).xi_api_key;
}

async function userId(person: Person): Promise<string | undefined> {
  return ((await call(person, 'GET', '/v1/user')).json() as { user_id?: string }).user_id;
}

async function cloneVoice(person: Person, name: string): Promise<string> {
  const sdk = new ElevenLabsClient({ apiKey: person.apiKey, baseUrl, maxRetries: 0 });
  return (await sdk.voices.ivc.create({ name, files: [new Blob([wav])] })).voiceId;
}

describe('invitations', () => {
  it('mails a code; accepting it makes a member who works in the workspace after a token refresh', async () => {
    const admin = await signUp('growing_business');
    const invitee = await signUp();
    const mine = invitee.workspaceId;
    const joined = await join(admin, invitee);
    expect(joined.workspaceId).toBe(admin.workspaceId);
    expect(joined.workspaceId).not.toBe(mine);
    const members = (await call(admin, 'GET', '/v1/workspace/members')).json() as { email: string }[];
    expect(members.map((m) => m.email).sort()).toEqual([admin.email, invitee.email].sort());
    expect(members.find((m) => m.email === invitee.email)).toMatchObject({
      seat_type: 'workspace_member',
      role: 'member',
      is_owner: false,
      is_locked: false,
    });
    const me = (await call(joined, 'GET', '/v1/user')).json();
    expect(me).toMatchObject({ workspace_id: admin.workspaceId, seat_type: 'workspace_member' });
    const summary = (await call(joined, 'GET', '/v1/workspace')).json();
    expect(summary).toMatchObject({ role: 'member', is_owner: false, max_seats: 3, seats_used: 2 });
    // Their own workspace is still theirs to go back to.
    const theirs = (await call(joined, 'GET', '/v1/user/workspaces')).json().workspaces as {
      workspace_id: string;
    }[];
    expect(theirs.map((w) => w.workspace_id).sort()).toEqual([mine, admin.workspaceId].sort());
    // The code works once.
    const again = await call(joined, 'POST', '/v1/user/workspace-invites/decline', {
      invite_code: 'x'.repeat(43),
    });
    expect(statusOf(again)).toBe('invalid_action_code');
  });

  it('shows a verified invitee the invitation under the bell and in their list; they answer it by id', async () => {
    const admin = await signUp('growing_business');
    const invitee = await signUp();
    await t.deps.database.db
      .update(users)
      .set({ emailVerifiedAt: new Date() })
      .where(eq(users.email, invitee.email));
    await call(admin, 'POST', '/v1/workspace/invites/add', { email: invitee.email, role: 'editor' });
    const bell = (await call(invitee, 'GET', '/v1/user/messages')).json() as {
      messages: { title: string; needs_attention: boolean; link: string | null }[];
    };
    expect(bell.messages[0]).toMatchObject({
      title: `${admin.email} invited you to My Workspace`,
      needs_attention: true,
      link: '/app/settings/workspace-invites',
    });
    const received = (await call(invitee, 'GET', '/v1/user/workspace-invites')).json().invites as {
      invite_id: string;
      workspace_id: string;
      role: string;
    }[];
    expect(received).toEqual([
      expect.objectContaining({
        workspace_id: admin.workspaceId,
        role: 'editor',
        workspace_name: 'My Workspace',
      }),
    ]);
    // Nobody else can answer it by its id.
    const stranger = await signUp();
    const byStranger = await call(stranger, 'POST', '/v1/user/workspace-invites/accept', {
      invite_id: received[0]?.invite_id,
    });
    expect(statusOf(byStranger)).toBe('invalid_action_code');
    const accepted = await call(invitee, 'POST', '/v1/user/workspace-invites/accept', {
      invite_id: received[0]?.invite_id,
    });
    expect(accepted.statusCode).toBe(200);
    expect((await call(admin, 'GET', '/v1/workspace/members')).json()).toHaveLength(2);
  });

  it('counts seats (§9): members and pending invitations; the free plan has one', async () => {
    const free = await signUp();
    const refused = await call(free, 'POST', '/v1/workspace/invites/add', { email: 'nobody@example.test' });
    expect(refused.statusCode).toBe(403);
    expect(statusOf(refused)).toBe('seat_limit_reached');
    expect(refused.json().detail.message).toContain('1 seat');

    const scale = await signUp('growing_business');
    const bulk = await call(scale, 'POST', '/v1/workspace/invites/add-bulk', {
      emails: ['one@example.test', 'two@example.test'],
    });
    expect(bulk.statusCode).toBe(200);
    // The same address again replaces its invitation and takes no new seat; a third does not fit.
    expect(
      (await call(scale, 'POST', '/v1/workspace/invites/add', { email: 'one@example.test' })).statusCode,
    ).toBe(200);
    const third = await call(scale, 'POST', '/v1/workspace/invites/add', { email: 'three@example.test' });
    expect(statusOf(third)).toBe('seat_limit_reached');
    const pending = (await call(scale, 'GET', '/v1/workspace/invites')).json().invites as { email: string }[];
    expect(pending.map((i) => i.email).sort()).toEqual(['one@example.test', 'two@example.test']);
    // Withdrawing one frees its seat, and its link stops working.
    const firstCode = codeIn(await inviteMail('two@example.test'));
    expect(
      (await call(scale, 'DELETE', '/v1/workspace/invites', { email: 'two@example.test' })).statusCode,
    ).toBe(200);
    expect(
      (await call(scale, 'POST', '/v1/workspace/invites/add', { email: 'three@example.test' })).statusCode,
    ).toBe(200);
    const late = await signUp();
    const gone = await call(late, 'POST', '/v1/user/workspace-invites/accept', { invite_code: firstCode });
    expect(statusOf(gone)).toBe('invalid_action_code');
    expect(
      statusOf(await call(scale, 'DELETE', '/v1/workspace/invites', { email: 'two@example.test' })),
    ).toBe('resource_not_found');
  });

  it('refuses a member already in, another address’s code, and bad input; a declined invitation is over', async () => {
    const admin = await signUp('growing_business');
    const invitee = await signUp();
    await join(admin, invitee);
    const twice = await call(admin, 'POST', '/v1/workspace/invites/add', { email: invitee.email });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().detail.message).toBe(`${invitee.email} is already a member of this workspace.`);

    const other = await signUp();
    const stranger = await signUp();
    await call(admin, 'POST', '/v1/workspace/invites/add', { email: other.email });
    const code = codeIn(await inviteMail(other.email));
    const wrong = await call(stranger, 'POST', '/v1/user/workspace-invites/accept', { invite_code: code });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().detail.message).toContain(other.email);
    expect(
      (await call(other, 'POST', '/v1/user/workspace-invites/decline', { invite_code: code })).statusCode,
    ).toBe(200);
    expect(
      statusOf(await call(other, 'POST', '/v1/user/workspace-invites/accept', { invite_code: code })),
    ).toBe('invalid_action_code');

    expect(
      (await call(admin, 'POST', '/v1/workspace/invites/add', { email: 'not an email' })).statusCode,
    ).toBe(422);
    expect((await call(admin, 'POST', '/v1/user/workspace-invites/accept', {})).statusCode).toBe(422);
    const unknownGroup = await call(admin, 'POST', '/v1/workspace/invites/add', {
      email: 'g@example.test',
      group_ids: ['nope'],
    });
    expect(statusOf(unknownGroup)).toBe('resource_not_found');
  });

  it('lets only members with the admin rights (admin, editor) manage the workspace', async () => {
    const admin = await signUp('growing_business');
    const member = await join(admin, await signUp());
    const editor = await join(admin, await signUp(), { role: 'editor' });
    const byMember = await call(member, 'POST', '/v1/workspace/invites/add', { email: 'x@example.test' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().detail.message).toBe('Only workspace admins can do this.');
    expect((await call(member, 'GET', '/v1/workspace/admin-status')).json()).toEqual({ is_admin: false });
    expect((await call(member, 'GET', '/v1/workspace/settings-access')).json()).toEqual({
      can_access_settings: false,
    });
    expect((await call(editor, 'GET', '/v1/workspace/admin-status')).json()).toEqual({ is_admin: true });
    // An editor's rights include an admin's (accounts §1).
    const group = await call(editor, 'POST', '/v1/workspace/groups', { name: 'Narrators' });
    expect(group.statusCode).toBe(200);
    expect((await call(member, 'POST', '/v1/workspace/groups', { name: 'Mine' })).statusCode).toBe(403);
    expect(
      (await call(member, 'POST', '/v1/workspace/settings', { session_inactivity_timeout: 3600 })).statusCode,
    ).toBe(403);
    const set = await call(editor, 'POST', '/v1/workspace/settings', { session_inactivity_timeout: 3600 });
    expect(set.json()).toMatchObject({ session_inactivity_timeout: 3600 });
    expect((await call(member, 'GET', '/v1/user')).json().session_inactivity_timeout).toBe(3600);
    expect(
      (await call(editor, 'POST', '/v1/workspace/settings', { session_inactivity_timeout: 7 })).statusCode,
    ).toBe(422);
  });
});

describe('sharing a resource', () => {
  it('keeps a member’s voice private until shared; viewers use it, only editors change it; removal revokes', async () => {
    const admin = await signUp('growing_business');
    const voiceId = await cloneVoice(admin, 'Team narrator');
    let member = await join(admin, await signUp());
    const speak = (who: Person) =>
      call(who, 'POST', `/v1/text-to-speech/${voiceId}?output_format=mp3_22050_32`, { text: 'Hello team.' });

    // Not shared: the member cannot see that it exists.
    expect(statusOf(await call(member, 'GET', `/v1/voices/${voiceId}`))).toBe('voice_not_found');
    expect(statusOf(await speak(member))).toBe('voice_not_found');
    const before = (await call(member, 'GET', '/v1/voices')).json().voices as { voice_id: string }[];
    expect(before.some((v) => v.voice_id === voiceId)).toBe(false);

    const share = await call(admin, 'POST', `/v1/workspace/resources/${voiceId}/share`, {
      role: 'viewer',
      resource_type: 'voice',
      user_email: member.email,
    });
    expect(share.json()).toEqual({ status: 'ok' });
    const spoken = await speak(member);
    expect(spoken.statusCode).toBe(200);
    expect(spoken.rawPayload.length).toBeGreaterThan(1000);
    const listed = (await call(member, 'GET', `/v2/voices?voice_type=workspace`)).json().voices as {
      voice_id: string;
    }[];
    expect(listed.map((v) => v.voice_id)).toContain(voiceId);
    // A viewer may not rename it, delete it or share it on.
    const rename = await call(member, 'POST', `/v1/voices/${voiceId}/settings/edit`, { stability: 0.9 });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().detail.message).toContain('needs editor access');
    expect((await call(member, 'DELETE', `/v1/voices/${voiceId}`)).statusCode).toBe(403);
    const reshare = await call(member, 'POST', `/v1/workspace/resources/${voiceId}/share`, {
      role: 'admin',
      resource_type: 'voice',
      group_id: 'default',
    });
    expect(reshare.statusCode).toBe(403);

    const meta = (await call(admin, 'GET', `/v1/workspace/resources/${voiceId}?resource_type=voice`)).json();
    expect(meta).toMatchObject({
      resource_type: 'voice',
      resource_name: 'Team narrator',
      your_role: 'admin',
    });
    expect(meta.role_to_group_ids.viewer).toHaveLength(1);

    // Removing the member revokes it at once: their old token no longer works in the workspace.
    expect(
      (await call(admin, 'POST', '/v1/workspace/members/remove', { email: member.email })).statusCode,
    ).toBe(200);
    const stale = await speak(member);
    expect(stale.statusCode).toBe(401);
    expect(statusOf(stale)).toBe('workspace_access_revoked');
    member = await refresh(member);
    expect(member.workspaceId).not.toBe(admin.workspaceId);
    expect(statusOf(await speak(member))).toBe('voice_not_found');
    expect(
      (await call(admin, 'GET', `/v1/workspace/resources/${voiceId}?resource_type=voice`)).json()
        .role_to_group_ids.viewer,
    ).toBeUndefined();
  });

  it('shares through a group and with everyone (default); the creator keeps admin', async () => {
    const admin = await signUp('growing_business');
    const member = await join(admin, await signUp());
    const other = await join(admin, await signUp());
    const spoken = await call(admin, 'POST', `/v1/text-to-speech/${premadeVoiceId('Sarah')}`, {
      text: 'For the group.',
    });
    const itemId = spoken.headers['history-item-id'] as string;
    expect((await call(member, 'GET', `/v1/history/${itemId}`)).statusCode).toBe(404);
    expect((await call(member, 'GET', '/v1/history')).json().history).toEqual([]);

    const group = (await call(admin, 'POST', '/v1/workspace/groups', { name: 'Editors' })).json() as {
      id: string;
    };
    expect(
      (await call(admin, 'POST', `/v1/workspace/groups/${group.id}/members`, { email: member.email }))
        .statusCode,
    ).toBe(200);
    await call(admin, 'POST', `/v1/workspace/resources/${itemId}/share`, {
      role: 'viewer',
      resource_type: 'history_item',
      group_id: group.id,
    });
    expect((await call(member, 'GET', `/v1/history/${itemId}`)).json()).toMatchObject({
      text: 'For the group.',
    });
    expect((await call(other, 'GET', `/v1/history/${itemId}`)).statusCode).toBe(404);
    // A viewer cannot delete it.
    expect((await call(member, 'DELETE', `/v1/history/${itemId}`)).statusCode).toBe(403);

    const groups = (await call(member, 'GET', '/v1/workspace/groups')).json();
    expect(groups[group.id]).toMatchObject({ name: 'Editors', members: [member.email] });
    const found = (await call(admin, 'GET', '/v1/workspace/groups/search?name=Editors')).json();
    expect(found).toEqual([{ id: group.id, name: 'Editors', members_emails: [member.email] }]);

    await call(admin, 'POST', `/v1/workspace/groups/${group.id}/members/remove`, { email: member.email });
    expect((await call(member, 'GET', `/v1/history/${itemId}`)).statusCode).toBe(404);

    await call(admin, 'POST', `/v1/workspace/resources/${itemId}/share`, {
      role: 'viewer',
      resource_type: 'history_item',
      group_id: 'default',
    });
    expect((await call(other, 'GET', `/v1/history/${itemId}`)).statusCode).toBe(200);
    const unshareCreator = await call(admin, 'POST', `/v1/workspace/resources/${itemId}/unshare`, {
      resource_type: 'history_item',
      user_email: admin.email,
    });
    expect(unshareCreator.statusCode).toBe(400);
    const two = await call(admin, 'POST', `/v1/workspace/resources/${itemId}/share`, {
      role: 'viewer',
      resource_type: 'history_item',
      group_id: 'default',
      user_email: member.email,
    });
    expect(two.statusCode).toBe(422);
    const project = await call(admin, 'POST', `/v1/workspace/resources/${itemId}/share`, {
      role: 'viewer',
      resource_type: 'project',
      group_id: 'default',
    });
    expect(project.statusCode).toBe(422);
  });
});

describe('collections shared by the workspace', () => {
  it('show each member only the voices they may use, and keep the unseen ones when a member edits', async () => {
    const admin = await signUp('growing_business');
    const member = await join(admin, await signUp());
    const privateVoice = await cloneVoice(admin, 'Unshared');
    const sarah = premadeVoiceId('Sarah');
    const made = await call(admin, 'POST', '/v1/voices/collections', {
      title: 'Team picks',
      voice_ids: [privateVoice, sarah],
    });
    expect(made.json().voice_ids).toEqual([privateVoice, sarah]);
    const id = made.json().collection_id as string;

    // The member sees the collection, but not the admin's unshared voice, not even its id.
    const listed = (await call(member, 'GET', '/v1/voices/collections')).json().collections;
    expect(listed).toEqual([expect.objectContaining({ collection_id: id, voice_ids: [sarah] })]);
    expect((await call(member, 'GET', `/v1/voices/collections/${id}`)).json().voice_ids).toEqual([sarah]);
    // Nor can they take it out, or learn whether it is there.
    const removal = await call(member, 'DELETE', `/v1/voices/collections/${id}/voice/${privateVoice}`);
    expect(removal.statusCode).toBe(404);
    expect(statusOf(removal)).toBe('voice_not_found');

    // Replacing the list replaces what the member sees; the admin's voice stays.
    const grace = premadeVoiceId('Grace');
    const edited = await call(member, 'PATCH', `/v1/voices/collections/${id}`, { voice_ids: [grace] });
    expect(edited.json().voice_ids).toEqual([grace]);
    // In its place: the member's voice took the place of the one they saw.
    expect((await call(admin, 'GET', `/v1/voices/collections/${id}`)).json().voice_ids).toEqual([
      privateVoice,
      grace,
    ]);

    // Once shared, the member sees it too.
    await call(admin, 'POST', `/v1/workspace/resources/${privateVoice}/share`, {
      role: 'viewer',
      resource_type: 'voice',
      user_email: member.email,
    });
    expect((await call(member, 'GET', `/v1/voices/collections/${id}`)).json().voice_ids).toEqual([
      privateVoice,
      grace,
    ]);

    // A deleted voice's id does not linger as one the member cannot see: their next edit drops it.
    const unseen = await cloneVoice(admin, 'Deleted later');
    await call(admin, 'POST', `/v1/voices/collections/${id}/voice/${unseen}`);
    expect((await call(admin, 'DELETE', `/v1/voices/${unseen}`)).statusCode).toBe(200);
    await call(member, 'PATCH', `/v1/voices/collections/${id}`, { voice_ids: [sarah] });
    expect((await call(admin, 'GET', `/v1/voices/collections/${id}`)).json().voice_ids).toEqual([sarah]);
    const stored = await t.deps.database.db
      .select({ voiceIds: voiceCollections.voiceIds })
      .from(voiceCollections)
      .where(eq(voiceCollections.id, id));
    expect(stored).toEqual([{ voiceIds: [sarah] }]);
  });
});

describe('members', () => {
  it('leaves what a removed member made to the admins, and billing to members with the admin rights', async () => {
    const admin = await signUp('growing_business');
    const member = await join(admin, await signUp());
    const voiceId = await cloneVoice({ ...member, apiKey: await keyIn(member) }, 'Left behind');
    expect(statusOf(await call(admin, 'GET', `/v1/voices/${voiceId}`))).toBe('voice_not_found');
    // A plain member may read the plan, not change it or see the invoices.
    const overview = await call(member, 'GET', '/v1/billing/overview');
    expect(overview.statusCode).toBe(403);
    expect(overview.json().detail.message).toBe('Only workspace admins can manage billing.');
    expect(
      (
        await call(member, 'POST', '/v1/billing/cancel-subscription', {
          idempotency_key: 'cancel-by-member-1',
        })
      ).statusCode,
    ).toBe(403);
    expect((await call(member, 'GET', '/v1/user/subscription')).statusCode).toBe(200);
    expect((await call(member, 'GET', '/v1/workspace/invites')).statusCode).toBe(403);

    await call(admin, 'POST', '/v1/workspace/members/remove', { email: member.email });
    expect((await call(admin, 'GET', `/v1/voices/${voiceId}`)).json()).toMatchObject({ name: 'Left behind' });
    expect((await call(admin, 'DELETE', `/v1/voices/${voiceId}`)).statusCode).toBe(200);
  });

  it('signs a removed member in to a workspace they still belong to', async () => {
    const admin = await signUp('growing_business');
    const member = await join(admin, await signUp());
    const theirs = (await call(member, 'GET', '/v1/user/workspaces')).json().workspaces as {
      workspace_id: string;
      is_owner: boolean;
    }[];
    const own = theirs.find((w) => w.is_owner)?.workspace_id;
    // Their current workspace points at one they lost (as if a removal raced a switch).
    await t.deps.database.db
      .delete(workspaceMembers)
      .where(eq(workspaceMembers.userId, (await userId(member)) ?? ''));
    const signIn = await call(undefined, 'POST', '/v1/auth/sign-in', {
      email: member.email,
      password: PASSWORD,
    });
    expect(signIn.statusCode).toBe(200);
    const session = signIn.json() as { workspace_id: string };
    expect(session.workspace_id).not.toBe(admin.workspaceId);
    expect(session.workspace_id).not.toBe(own);
  });

  it('locks, changes roles, transfers ownership; the owner cannot be removed', async () => {
    const owner = await signUp('growing_business');
    const member = await join(owner, await signUp());
    const refuse = await call(owner, 'POST', '/v1/workspace/members/remove', { email: owner.email });
    expect(refuse.statusCode).toBe(400);

    expect(
      (await call(owner, 'POST', '/v1/workspace/members', { email: member.email, is_locked: true }))
        .statusCode,
    ).toBe(200);
    expect((await call(member, 'GET', '/v1/workspace')).statusCode).toBe(401);
    await call(owner, 'POST', '/v1/workspace/members', { email: member.email, is_locked: false });
    const back = await call(member, 'POST', '/v1/user/switch-workspace', { workspace_id: owner.workspaceId });
    expect(back.statusCode).toBe(200);
    const again = await refresh(member);
    expect(again.workspaceId).toBe(owner.workspaceId);

    await call(owner, 'POST', '/v1/workspace/members', {
      email: member.email,
      workspace_role: 'workspace_admin',
    });
    expect((await call(again, 'GET', '/v1/workspace/admin-status')).json()).toEqual({ is_admin: true });
    expect(
      (await call(again, 'POST', '/v1/workspace/transfer-ownership', { email: again.email })).statusCode,
    ).toBe(403);
    expect(
      (await call(owner, 'POST', '/v1/workspace/transfer-ownership', { email: member.email })).statusCode,
    ).toBe(200);
    const summary = (await call(again, 'GET', '/v1/workspace')).json();
    expect(summary).toMatchObject({ is_owner: true, role: 'admin' });
    // The old owner stays an admin and may now be removed by the new one.
    expect(
      (await call(again, 'POST', '/v1/workspace/members/remove', { email: owner.email })).statusCode,
    ).toBe(200);
  });

  it('speaks the public API with the official client', async () => {
    const admin = await signUp('growing_business');
    const sdk = new ElevenLabsClient({ apiKey: admin.apiKey, baseUrl, maxRetries: 0 });
    const members = await sdk.workspace.members.list();
    expect(members).toEqual([
      expect.objectContaining({
        email: admin.email,
        isOwner: true,
        isLocked: false,
        seatType: 'workspace_admin',
      }),
    ]);
    const groups = await sdk.workspace.groups.list();
    expect(groups).toEqual({});
    const voiceId = await cloneVoice(admin, 'Shared by the client');
    await sdk.workspace.resources.share(voiceId, {
      role: 'viewer',
      resourceType: 'voice',
      groupId: 'default',
    });
    const meta = await sdk.workspace.resources.get(voiceId, { resourceType: 'voice' });
    expect(meta.roleToGroupIds.viewer).toEqual(['default']);
    await sdk.workspace.resources.unshare(voiceId, { resourceType: 'voice', groupId: 'default' });
  });
});

describe('workspace administration with an API key (the official client has no session)', () => {
  /** A JSON call with an API key, for what the official client does not send. */
  const callWithKey = (apiKey: string, method: string, url: string, body?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      remoteAddress: client(),
      headers: { 'xi-api-key': apiKey },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const address = (name: string) => `${name}-${newId(8).toLowerCase()}@example.test`;
  const pendingOf = async (admin: Person) =>
    ((await call(admin, 'GET', '/v1/workspace/invites')).json().invites as { email: string }[])
      .map((i) => i.email)
      .sort();

  it('an admin’s key invites, changes members and groups; a plain member’s key is refused', async () => {
    const admin = await signUp('scale_2024_08_10');
    const member = await join(admin, await signUp());
    const sdk = new ElevenLabsClient({ apiKey: admin.apiKey, baseUrl, maxRetries: 0 });
    const [one, two, three] = [address('one'), address('two'), address('three')];

    expect(await sdk.workspace.invites.create({ email: one })).toEqual({ status: 'ok' });
    expect(await sdk.workspace.invites.createBatch({ emails: [two, three] })).toEqual({ status: 'ok' });
    expect((await inviteMail(three)).subject).toMatch(/invited you/);
    expect(await pendingOf(admin)).toEqual([one, two, three].sort());
    expect(await sdk.workspace.invites.delete({ email: one })).toEqual({ status: 'ok' });
    expect(await pendingOf(admin)).toEqual([two, three].sort());

    const seatOf = async (email: string) =>
      (await sdk.workspace.members.list()).find((m) => m.email === email)?.seatType;
    expect(
      await sdk.workspace.members.update({ email: member.email, workspaceRole: 'workspace_admin' }),
    ).toEqual({ status: 'ok' });
    expect(await seatOf(member.email)).toBe('workspace_admin');
    await sdk.workspace.members.update({ email: member.email, workspaceRole: 'workspace_member' });
    expect(await seatOf(member.email)).toBe('workspace_member');

    const group = await callWithKey(admin.apiKey, 'POST', '/v1/workspace/groups', { name: 'By key' });
    expect(group.statusCode).toBe(200);
    const groupId = group.json().id as string;
    expect(await sdk.workspace.groups.members.add(groupId, { email: member.email })).toEqual({
      status: 'ok',
    });
    expect((await sdk.workspace.groups.list())[groupId]?.members).toEqual([member.email]);
    expect(await sdk.workspace.groups.members.remove(groupId, { email: member.email })).toEqual({
      status: 'ok',
    });
    expect((await sdk.workspace.groups.list())[groupId]?.members).toEqual([]);

    // A member without the admin rights gets nowhere with their own key.
    const theirs = new ElevenLabsClient({ apiKey: await keyIn(member), baseUrl, maxRetries: 0 });
    const refusals = [
      () => theirs.workspace.invites.create({ email: address('four') }),
      () => theirs.workspace.invites.createBatch({ emails: [address('five')] }),
      () => theirs.workspace.invites.delete({ email: two }),
      () => theirs.workspace.members.update({ email: admin.email, isLocked: true }),
      () => theirs.workspace.groups.members.add(groupId, { email: member.email }),
      () => theirs.workspace.groups.members.remove(groupId, { email: member.email }),
    ];
    for (const refused of refusals) {
      const error = await refused().catch((e: unknown) => e);
      expect(error).toMatchObject({
        statusCode: 403,
        body: { detail: { status: 'forbidden', message: 'Only workspace admins can do this.' } },
      });
    }
    expect(await pendingOf(admin)).toEqual([two, three].sort());

    // Removing a member and dropping a group are the same administration.
    expect((await callWithKey(admin.apiKey, 'DELETE', `/v1/workspace/groups/${groupId}`)).statusCode).toBe(
      200,
    );
    const removed = await callWithKey(admin.apiKey, 'POST', '/v1/workspace/members/remove', {
      email: member.email,
    });
    expect(removed.statusCode).toBe(200);
    expect((await sdk.workspace.members.list()).map((m) => m.email)).toEqual([admin.email]);
  });

  it('keeps the account’s own security, the ownership and the settings for a signed-in session', async () => {
    const owner = await signUp('growing_business');
    const member = await join(owner, await signUp());
    const refusedToKey = [
      ['POST', '/v1/user/api-keys', { name: 'another' }],
      ['POST', '/v1/workspace/transfer-ownership', { email: member.email }],
      ['POST', '/v1/workspace/settings', { session_inactivity_timeout: 3600 }],
    ] as const;
    for (const [method, url, body] of refusedToKey) {
      const res = await callWithKey(owner.apiKey, method, url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().detail.message, url).toBe(
        'This needs a signed-in session; API keys cannot change account security.',
      );
    }
    expect((await call(owner, 'GET', '/v1/workspace')).json()).toMatchObject({ is_owner: true });
  });
});
