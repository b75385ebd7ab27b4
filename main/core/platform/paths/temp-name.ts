/**
 * Names the plugin gives its temp files while it rewrites a store (write to `<file>.tmp.<…>`, then
 * rename; docs/plugin-formats.md, "temp files"). Listings, the index and the watcher ignore them.
 */
export const isTempName = (name: string): boolean => name.includes('.tmp');
