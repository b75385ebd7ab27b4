import { describe, expect, it } from 'vitest';
import type { SkillItem } from '../../../../shared/contract/skills';
import { staleDisagreement } from './stale-claims';

const item = (slug: string, kind: SkillItem['kind']) => ({ slug, kind }) as SkillItem;
const at = '2026-11-29T14:03:00.000Z';

describe('stale skills: the improver’s words against the plugin’s marker', () => {
  it('says why a proposal that names a stale active skill differs from Stale (0)', () => {
    const items = [item('scope-discipline', 'active'), item('webhook-retry-backoff', 'active')];
    const text = staleDisagreement({ generatedAt: at, body: '## Inventory snapshot\n\n- 2 active generated skills, 1 stale (webhook-retry-backoff: its source entry was archived).\n' }, items);
    expect(text).toContain('names webhook-retry-backoff as stale; this list shows 0 stale skills');
    expect(text).toContain('stale.marker');
    expect(text).toContain('2026-11-29 14:03 UTC');
  });

  it('says so for a bare count too, and nothing when they agree', () => {
    expect(staleDisagreement({ generatedAt: at, body: '- 3 active, 2 stale.' }, [item('a', 'stale')])).toContain('counts 2 stale skills; this list shows 1 stale skill');
    expect(staleDisagreement({ generatedAt: at, body: '- 3 active generated skills, 1 retired, 1 stale.' }, [item('x', 'stale'), item('y', 'active')])).toBeNull();
    expect(staleDisagreement({ generatedAt: at, body: 'nothing about it' }, [item('y', 'active')])).toBeNull();
    expect(staleDisagreement(undefined, [])).toBeNull();
  });
});
