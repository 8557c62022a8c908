import {
  type ReceivedInvite,
  ReceivedInvite as ReceivedInviteSchema,
  type WorkspaceGroup,
  type WorkspaceMember,
  WorkspaceMember as WorkspaceMemberSchema,
  type WorkspaceSummary,
  WorkspaceSummary as WorkspaceSummarySchema,
} from '@parla/contracts';
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from './billing-fixture';
import { makeSession, makeUser } from './user-fixture';

/** The current workspace as `GET /v1/workspace` answers it: the caller (u1) owns it, 2 of 3 seats used. */
export function makeWorkspaceSummary(overrides: Partial<WorkspaceSummary> = {}): WorkspaceSummary {
  return WorkspaceSummarySchema.parse({
    workspace_id: 'w1',
    name: 'Acme',
    owner_id: 'u1',
    is_owner: true,
    role: 'admin',
    seat_type: 'workspace_admin',
    max_seats: 3,
    seats_used: 2,
    session_inactivity_timeout: null,
    speech_to_text_webhook_ids: [],
    pronunciation_dictionary_locators: [],
    created_at_unix: 1_750_000_000,
    ...overrides,
  });
}

/** A member of the workspace; `overrides` change any field. */
export function makeMember(overrides: Partial<WorkspaceMember> = {}): WorkspaceMember {
  const role = overrides.role ?? 'member';
  return WorkspaceMemberSchema.parse({
    user_id: 'u2',
    email: 'bob@example.test',
    first_name: 'Bob',
    seat_type: role === 'member' ? 'workspace_member' : 'workspace_admin',
    is_owner: false,
    is_locked: false,
    role,
    joined_at_unix: 1_750_000_000,
    ...overrides,
  });
}

/** The signed-in user (u1, ada@example.test) as the owner and admin of the workspace. */
export const ownerMember = makeMember({
  user_id: 'u1',
  email: 'ada@example.test',
  first_name: 'Ada',
  role: 'admin',
  is_owner: true,
});

export function makeGroup(overrides: Partial<WorkspaceGroup> = {}): WorkspaceGroup {
  return { id: 'g1', name: 'Narrators', members: [], permissions: [], ...overrides };
}

/** An invitation addressed to the signed-in user. */
export function makeReceivedInvite(overrides: Partial<ReceivedInvite> = {}): ReceivedInvite {
  return ReceivedInviteSchema.parse({
    invite_id: 'i1',
    workspace_id: 'w2',
    workspace_name: 'Globex',
    invited_by: 'Hank',
    role: 'member',
    expires_at_unix: 1_900_000_000,
    ...overrides,
  });
}

export interface ApiCall {
  key: string;
  query: URLSearchParams;
  body: unknown;
}
export type ApiHandler = (call: ApiCall) => Response | Promise<Response>;

/**
 * Signs in (token t1) and answers the API from "METHOD path" handlers: the user, a token refresh and
 * the workspace summary by default; anything else not given answers 404. Returns the calls made.
 */
export function stubWorkspaceApi(handlers: Record<string, ApiHandler> = {}): ApiCall[] {
  setAccessToken('t1');
  const calls: ApiCall[] = [];
  const base: Record<string, ApiHandler> = {
    'GET /v1/user': () => json(makeUser()),
    'POST /v1/auth/refresh': () => json(makeSession('t2')),
    'GET /v1/workspace': () => json(makeWorkspaceSummary()),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path = '', search = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      const raw = init?.body;
      const body = typeof raw === 'string' ? JSON.parse(raw) : undefined;
      const call = { key, query: new URLSearchParams(search), body };
      calls.push(call);
      const handler = handlers[key] ?? base[key];
      return handler ? handler(call) : apiError(404, 'not_found');
    }),
  );
  return calls;
}

/** The calls made to one "METHOD path". */
export const callsTo = (calls: ApiCall[], key: string) => calls.filter((call) => call.key === key);

/** What a workspace test leaves behind, cleared. */
export function cleanUpWorkspaceTest(): void {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  localStorage.clear();
}
