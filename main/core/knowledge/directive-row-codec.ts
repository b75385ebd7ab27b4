import { DirectiveRow, MaturityVerdict } from '../../../shared/contract/knowledge';

/**
 * A directive row as kept in the index (persisted-directives.ts): its values without their keys,
 * in the contract's key order (DirectiveRow), the funnel, the maturity verdict with its checks and
 * the expiry marker packed the same way. Keys were half of each stored row (1.55 KB a row at
 * 30,000 directives); the key lists come from the contract, so a field added there is kept
 * without touching this file. Decoding gives the row back with the same keys and values.
 */

interface Layout {
  keys: readonly string[];
  /** Fields that are themselves objects packed by a layout (`each`: an array of such objects; `nullable`: may be null). */
  nested?: Readonly<Record<string, { layout: Layout; each?: true; nullable?: true }>>;
}

const CHECK: Layout = { keys: MaturityVerdict.shape.checks.element.keyof().options };
const MATURITY: Layout = { keys: MaturityVerdict.keyof().options, nested: { checks: { layout: CHECK, each: true } } };
const ROW: Layout = {
  keys: DirectiveRow.keyof().options,
  nested: {
    funnel: { layout: { keys: DirectiveRow.shape.funnel.keyof().options } },
    maturity: { layout: MATURITY },
    expiry: { layout: { keys: DirectiveRow.shape.expiry.unwrap().keyof().options }, nullable: true },
  },
};

function pack(value: Record<string, unknown>, layout: Layout): unknown[] {
  return layout.keys.map((key) => {
    const field = value[key];
    const nested = layout.nested?.[key];
    if (field === undefined) throw new Error(`directive row without "${key}"`);
    if (!nested || (nested.nullable && field === null)) return field;
    if (nested.each) return (field as Record<string, unknown>[]).map((item) => pack(item, nested.layout));
    return pack(field as Record<string, unknown>, nested.layout);
  });
}

function unpack(values: readonly unknown[], layout: Layout): Record<string, unknown> {
  if (!Array.isArray(values) || values.length !== layout.keys.length) throw new Error('stored directive row of another shape');
  const out: Record<string, unknown> = {};
  layout.keys.forEach((key, i) => {
    const field = values[i];
    const nested = layout.nested?.[key];
    if (!nested || (nested.nullable && field === null)) out[key] = field;
    else if (nested.each) out[key] = (field as unknown[][]).map((item) => unpack(item, nested.layout));
    else out[key] = unpack(field as unknown[], nested.layout);
  });
  return out;
}

export const encodeDirectiveRow = (row: DirectiveRow): string => JSON.stringify(pack(row as unknown as Record<string, unknown>, ROW));

export const decodeDirectiveRow = (text: string): DirectiveRow => unpack(JSON.parse(text) as unknown[], ROW) as unknown as DirectiveRow;
