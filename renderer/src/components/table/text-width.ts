/**
 * Widths of text in the table's font, from a canvas: no layout is read, so deciding whether a
 * cell must clip costs no forced reflow. A cell clips only when its content is wider than its
 * column, because every clipped cell is a clip node (and a paint layer) that the compositor walks
 * and re-layerizes on every scrolled frame.
 */
export interface TextWidth {
  /** Width in px of `text` in the cells' font family, at the cells' font size or `fontSizePx`. */
  of(text: string, fontSizePx?: number): number;
  /** Whether `text` needs more than `available` px (a long text is not measured at all). */
  wider(text: string, available: number, fontSizePx?: number): boolean;
}

/** No glyph is narrower than this share of the font size: a text longer than that surely overflows. */
const NARROWEST_GLYPH = 0.2;
/** Canvas and layout may round differently: a text within a pixel of the edge clips. */
const SLACK_PX = 1;
const CACHE_LIMIT = 4_000;

/**
 * `font()` gives the cells' font family and size, read once, when the first text is measured.
 * Canvas text is shaped as layout shapes it; it does not collapse runs of white space as
 * `white-space: nowrap` does, so it errs on the wide side (a needless clip, never a spill).
 */
export function createTextWidth(font: () => { family: string; size: number }): TextWidth {
  let context: CanvasRenderingContext2D | null | undefined;
  let resolved: { family: string; size: number } | undefined;
  let contextFont = '';
  const cache = new Map<string, number>();
  const of = (text: string, fontSizePx?: number): number => {
    resolved ??= font();
    const size = fontSizePx ?? resolved.size;
    const key = `${size}\u0000${text}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    context ??= document.createElement('canvas').getContext('2d');
    // Without a canvas nothing can be measured: every such cell clips, as all did before.
    if (!context) return Number.POSITIVE_INFINITY;
    const wanted = `${size}px ${resolved.family}`;
    if (contextFont !== wanted) context.font = contextFont = wanted;
    const width = context.measureText(text).width;
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, width);
    return width;
  };
  return {
    of,
    wider(text, available, fontSizePx) {
      resolved ??= font();
      if (text.length * (fontSizePx ?? resolved.size) * NARROWEST_GLYPH > available) return true;
      return of(text, fontSizePx) > available - SLACK_PX;
    },
  };
}
