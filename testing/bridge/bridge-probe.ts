/**
 * Test helper run as a child process (`node --import tsx bridge-probe.ts URL`): connects a bridge
 * to an OpenCode server as the Live view does, waits for the first catch-up (or for the
 * connection to give up), prints the server's state as one JSON line and exits.
 */
import { Bridge } from '../../main/core/bridge/bridge';

const bridge = new Bridge({ dbFile: ':memory:', persistSeqs: false });
bridge.connect({ url: process.argv[2] as string });
await bridge.whenSynced();
process.stdout.write(`${JSON.stringify({ state: bridge.servers()[0]?.state })}\n`);
await bridge.dispose();
