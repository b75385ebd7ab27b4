/**
 * The V2 receipt ledger's schema names (docs/plugin-formats.md#v2-receipts), in a module that
 * imports nothing: the receipt hash worker (main/core/receipts/receipt-hash-worker.ts) needs
 * them, and a worker thread must not load the contract's dependencies (zod) from inside the asar
 * archive. receipt-format.ts re-exports them with the rest of the format.
 */
export const RECEIPT_SCHEMA = 'swarm.knowledge-receipt/2';
export const SNAPSHOT_SCHEMA = 'swarm.knowledge-receipt-snapshot/2';
