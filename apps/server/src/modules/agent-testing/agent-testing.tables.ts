import type { AgentResponseTurn, AgentTestBody, ConditionResult, TestRunStatus } from '@parla/contracts';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** What a test holds besides its name and folder: the definition, as its create/update body gave it. */
export type AgentTestDefinition = Omit<AgentTestBody, 'name' | 'parent_folder_id' | 'type'> & {
  type: 'llm' | 'tool';
};

/**
 * A workspace's agent tests (issue 28, agent testing): a chat history and what the agent's next answer
 * must do. Deleted with their workspace (the foreign key cascades; nothing is kept in storage).
 */
export const agentTests = pgTable(
  'agent_tests',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** llm | tool. */
    type: text('type').notNull(),
    folderId: text('folder_id'),
    definition: jsonb('definition').$type<AgentTestDefinition>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_tests_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type AgentTestRow = typeof agentTests.$inferSelect;

/** Folders of agent tests (`tests.folders`): one level of names, nested by parent. */
export const agentTestFolders = pgTable(
  'agent_test_folders',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    parentId: text('parent_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_test_folders_workspace_idx').on(t.workspaceId, t.parentId)],
);
export type AgentTestFolderRow = typeof agentTestFolders.$inferSelect;

/** One `run-tests` call: the tests it ran against one agent, run by one job. */
export const agentTestInvocations = pgTable(
  'agent_test_invocations',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    agentId: text('agent_id').notNull(),
    title: text('title').notNull(),
    repeatCount: integer('repeat_count').notNull().default(1),
    cancelled: integer('cancelled').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agent_test_invocations_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type AgentTestInvocationRow = typeof agentTestInvocations.$inferSelect;

/**
 * A test's run in an invocation: the test as it was when run (a later edit or delete changes no past
 * verdict), the agent's answer and the verdict with its rationale.
 */
export const agentTestRuns = pgTable(
  'agent_test_runs',
  {
    id: text('id').primaryKey(),
    invocationId: text('invocation_id')
      .notNull()
      .references(() => agentTestInvocations.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    testId: text('test_id').notNull(),
    testName: text('test_name').notNull(),
    test: jsonb('test').$type<AgentTestDefinition>().notNull(),
    position: integer('position').notNull(),
    status: text('status').$type<TestRunStatus>().notNull().default('pending'),
    responseMode: text('response_mode').$type<'llm' | 'knowledge_base'>(),
    agentResponses: jsonb('agent_responses')
      .$type<z.output<typeof AgentResponseTurn>[]>()
      .notNull()
      .default([]),
    conditionResult: jsonb('condition_result').$type<ConditionResult>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('agent_test_runs_invocation_idx').on(t.invocationId, t.position),
    index('agent_test_runs_test_idx').on(t.workspaceId, t.testId),
  ],
);
export type AgentTestRunRow = typeof agentTestRuns.$inferSelect;
