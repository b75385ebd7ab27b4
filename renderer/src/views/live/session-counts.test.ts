import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../../../shared/contract/live';
import { sessionSplit, sessionsElsewhere } from './session-counts';

const session = (id: string, serverId: string, otherProject = false): SessionInfo => ({ id, serverId, directory: null, projectID: null, title: id, agent: null, status: 'idle', updatedAt: null, denials: 0, otherProject });

describe('session counts the Servers and Sessions panels share', () => {
  it('splits a server’s count into this project and elsewhere', () => {
    const servers = [{ id: 'a', sessionCount: 1 }, { id: 'b', sessionCount: 3 }] as never[];
    // server a: its one session runs in another folder, so the project list is empty
    expect(sessionSplit(servers[0] as never, [])).toEqual({ here: 0, elsewhere: 1 });
    const listed = [session('s1', 'b'), session('s2', 'b'), session('s3', 'b', true), session('s4', 'a', true)];
    expect(sessionSplit(servers[1] as never, listed)).toEqual({ here: 2, elsewhere: 1 });
    expect(sessionsElsewhere(servers as never, listed)).toBe(2);
  });
});
