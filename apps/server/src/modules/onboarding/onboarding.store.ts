import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import {
  type OnboardingSurvey,
  type StoredChecklist,
  type UserOnboardingRow,
  userOnboarding,
} from './onboarding.tables';

/** A user's checklist as stored, and whether it is marked complete. */
export interface ChecklistState {
  checklist: StoredChecklist | null;
  completed: boolean;
}

const stateColumns = {
  checklist: userOnboarding.onboardingChecklist,
  completed: userOnboarding.isOnboardingChecklistCompleted,
};

/** A user's onboarding row, or undefined when they have none (onboarded, no checklist started). */
export async function findOnboarding(db: Db, userId: string): Promise<UserOnboardingRow | undefined> {
  const [row] = await db.select().from(userOnboarding).where(eq(userOnboarding.userId, userId));
  return row;
}

/** An account made by sign-up: its survey is to be taken (accounts §3 is_onboarding_completed false). */
export async function insertPendingOnboarding(db: Db, userId: string): Promise<void> {
  await db
    .insert(userOnboarding)
    .values({ userId, isOnboardingCompleted: false })
    .onConflictDoUpdate({ target: userOnboarding.userId, set: { isOnboardingCompleted: false } });
}

/** Keeps the survey and marks onboarding done. */
export async function saveSurvey(db: Db, userId: string, survey: OnboardingSurvey): Promise<void> {
  await db
    .insert(userOnboarding)
    .values({ userId, onboardingSurvey: survey, isOnboardingCompleted: true })
    .onConflictDoUpdate({
      target: userOnboarding.userId,
      set: { onboardingSurvey: survey, isOnboardingCompleted: true },
    });
}

/** The checklist as stored; undefined when the user has no onboarding row. */
export async function getChecklistState(db: Db, userId: string): Promise<ChecklistState | undefined> {
  const [row] = await db.select(stateColumns).from(userOnboarding).where(eq(userOnboarding.userId, userId));
  return row;
}

/** Stores a new checklist unless one exists (then nothing changes); answers whether this call stored it. */
export async function insertChecklist(db: Db, userId: string, checklist: StoredChecklist): Promise<boolean> {
  const rows = await db
    .insert(userOnboarding)
    .values({ userId, onboardingChecklist: checklist, isOnboardingChecklistCompleted: false })
    .onConflictDoUpdate({
      target: userOnboarding.userId,
      set: { onboardingChecklist: checklist, isOnboardingChecklistCompleted: false },
      where: isNull(userOnboarding.onboardingChecklist),
    })
    .returning({ userId: userOnboarding.userId });
  return rows.length > 0;
}

/**
 * Sets the item's completion time if the checklist exists and the item is open, in one UPDATE: of two
 * calls at once, the second waits for the first's row lock and then finds the item complete (PostgreSQL
 * checks the condition again on the row it waited for). Answers whether this call completed the item.
 */
export async function completeStoredItem(
  db: Db,
  userId: string,
  itemId: string,
  completedAtUnix: number,
): Promise<boolean> {
  const items = sql`${userOnboarding.onboardingChecklist} -> 'items'`;
  const rows = await db
    .update(userOnboarding)
    .set({
      onboardingChecklist: sql`jsonb_set(${userOnboarding.onboardingChecklist}, '{items}', (
        select jsonb_agg(
          case when entry.item ->> 'id' = ${itemId} and entry.item ->> 'completed_at' is null
            then entry.item || jsonb_build_object('completed_at', ${completedAtUnix}::integer)
            else entry.item end
          order by entry.position)
        from jsonb_array_elements(${items}) with ordinality as entry(item, position)))`,
    })
    .where(
      and(
        eq(userOnboarding.userId, userId),
        isNotNull(userOnboarding.onboardingChecklist),
        sql`exists (select 1 from jsonb_array_elements(${items}) as open_item(item)
          where open_item.item ->> 'id' = ${itemId} and open_item.item ->> 'completed_at' is null)`,
      ),
    )
    .returning({ userId: userOnboarding.userId });
  return rows.length > 0;
}

/** Hides a started checklist; undefined when none is started. */
export async function hideStoredChecklist(db: Db, userId: string): Promise<ChecklistState | undefined> {
  const [row] = await db
    .update(userOnboarding)
    .set({
      onboardingChecklist: sql`jsonb_set(${userOnboarding.onboardingChecklist}, '{hidden}', 'true'::jsonb)`,
    })
    .where(and(eq(userOnboarding.userId, userId), isNotNull(userOnboarding.onboardingChecklist)))
    .returning(stateColumns);
  return row;
}

/** Marks a started checklist complete; undefined when none is started. */
export async function markStoredChecklistComplete(
  db: Db,
  userId: string,
): Promise<ChecklistState | undefined> {
  const [row] = await db
    .update(userOnboarding)
    .set({ isOnboardingChecklistCompleted: true })
    .where(and(eq(userOnboarding.userId, userId), isNotNull(userOnboarding.onboardingChecklist)))
    .returning(stateColumns);
  return row;
}

/**
 * Marks every completed, not yet acknowledged item acknowledged, under the row's lock, and answers those
 * items: two calls at once never both get one. Undefined when the user has no onboarding row.
 */
export async function acknowledgeStoredItems(
  db: Db,
  userId: string,
  acknowledgedAtUnix: number,
): Promise<{ state: ChecklistState; acknowledged: string[] } | undefined> {
  return db.transaction(async (tx) => {
    const [state] = await tx
      .select(stateColumns)
      .from(userOnboarding)
      .where(eq(userOnboarding.userId, userId))
      .for('update');
    if (!state?.checklist) return state && { state, acknowledged: [] };
    const acknowledged = state.checklist.items
      .filter((item) => item.completed_at !== null && item.acknowledged_at == null)
      .map((item) => item.id);
    if (acknowledged.length === 0) return { state, acknowledged };
    const checklist: StoredChecklist = {
      ...state.checklist,
      items: state.checklist.items.map((item) =>
        acknowledged.includes(item.id) ? { ...item, acknowledged_at: acknowledgedAtUnix } : item,
      ),
    };
    await tx
      .update(userOnboarding)
      .set({ onboardingChecklist: checklist })
      .where(eq(userOnboarding.userId, userId));
    return { state: { ...state, checklist }, acknowledged };
  });
}
