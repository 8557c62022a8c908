import { describe, expect, it } from 'vitest';
import { makeChecklist } from '../../test/onboarding-fixture';
import {
  availableLanding,
  checklistItemGuides,
  isChecklistActive,
  itemsOfBuiltProducts,
  landingAfterSignIn,
  unacknowledgedItems,
} from './checklist-items';

describe('checklist item landings (accounts §2)', () => {
  const built = new Set(['/app/voice-lab', '/app/voice-library']);

  it('links an app page only when it is built, with or without a query', () => {
    expect(availableLanding(checklistItemGuides.design_voice.landing, built)?.href).toBe(
      '/app/voice-lab?creationType=designVoice',
    );
    expect(availableLanding(checklistItemGuides.create_dub.landing, built)).toBeNull();
    // Not in this set of built pages: no link.
    expect(availableLanding(checklistItemGuides.join_affiliate.landing, built)).toBeNull();
    expect(
      availableLanding(checklistItemGuides.join_affiliate.landing, new Set(['/app/affiliates']))?.href,
    ).toBe('/app/affiliates');
  });

  it('shows only the steps whose product is built, in the server’s order', () => {
    const items = makeChecklist({ done: ['create_dub'] }).checklist?.items ?? [];
    const shown = itemsOfBuiltProducts(items, new Set(['/app/voice-lab', '/app/voice-library']));
    expect(shown.map((item) => item.onboarding_checklist_item_id)).toEqual([
      'add_voice_to_voice_lab',
      'design_voice',
      'generate_api_key',
    ]);
    expect(
      itemsOfBuiltProducts(items, new Set(['/app/dubbing'])).map((i) => i.onboarding_checklist_item_id),
    ).toEqual(['create_dub', 'generate_api_key']);
  });

  it('always links the server’s own pages', () => {
    expect(availableLanding(checklistItemGuides.generate_api_key.landing, new Set())?.href).toBe('/docs');
  });
});

describe('landingAfterSignIn', () => {
  it('puts the survey first while onboarding is to do, keeping the target', () => {
    expect(landingAfterSignIn('/app/usage', { is_onboarding_completed: false })).toBe(
      '/app/onboarding?redirect=%2Fapp%2Fusage',
    );
    expect(landingAfterSignIn('/app/usage', { is_onboarding_completed: true })).toBe('/app/usage');
    expect(landingAfterSignIn('/app/usage', null)).toBe('/app/usage');
    expect(landingAfterSignIn('/app/onboarding/next', { is_onboarding_completed: false })).toBe(
      '/app/onboarding/next',
    );
  });
});

describe('checklist state', () => {
  it('is active while started, showing and not marked complete', () => {
    expect(isChecklistActive(makeChecklist())).toBe(true);
    expect(isChecklistActive(makeChecklist({ hidden: true }))).toBe(false);
    expect(isChecklistActive(makeChecklist({ completed: true }))).toBe(false);
    expect(isChecklistActive(makeChecklist({ started: false }))).toBe(false);
    expect(isChecklistActive(undefined)).toBe(false);
  });

  it('names the completed steps nobody was congratulated on', () => {
    const answer = makeChecklist({ done: ['design_voice', 'create_dub'], acknowledged: ['design_voice'] });
    expect(unacknowledgedItems(answer)).toEqual(['create_dub']);
  });
});
