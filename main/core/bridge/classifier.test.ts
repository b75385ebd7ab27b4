import { describe, expect, it } from 'vitest';
import { classifyToolPart, parseAckMarkers, parseDirectiveIds } from './classifier';
import { matchGatePrefix } from './gate-prefixes';

// A denial exactly as OpenCode 1.18.33 published it on /global/event (captured).
const deniedPart = {
  type: 'tool',
  tool: 'knowledge_probe',
  callID: 'call_fake_7',
  state: {
    status: 'error',
    input: { topic: 'db-migrations' },
    error:
      'KNOWLEDGE_ENFORCE_GATE_DENY: knowledge_probe blocked — critical knowledge directive(s) KD-0001 require KNOWLEDGE_APPLIED:KD-0001 before this tool may run (callID=call_fake_7)',
    time: { start: 1795978408946, end: 1795978408950 },
  },
  id: 'prt_228a7b3e900195uHwIcRLzwW1p',
  sessionID: 'ses_dd758602effewIAvZMqnHi1VZO',
  messageID: 'msg_228a7b0a10013oTnFRCcfLUcVq',
};

const allowedPart = {
  type: 'tool',
  tool: 'knowledge_probe',
  callID: 'call_fake_9',
  state: {
    status: 'completed',
    input: { topic: 'db-migrations', ack: 'KNOWLEDGE_APPLIED:KD-0001' },
    output: 'knowledge_probe ok: topic=db-migrations session=ses_dd758602effewIAvZMqnHi1VZO',
    metadata: { truncated: false },
    title: '',
    time: { start: 1795978409509, end: 1795978409514 },
  },
  id: 'prt_228a7b61f001ZJeTOGvZTP7zp2',
  sessionID: 'ses_dd758602effewIAvZMqnHi1VZO',
  messageID: 'msg_228a7b5c6001oAlLl0a25WN5J1',
};

describe('classifyToolPart', () => {
  it('turns a knowledge-gate error into a denial with session, call, tool, time and directive ids', () => {
    const denial = classifyToolPart(deniedPart);
    expect(denial).toMatchObject({
      kind: 'denial',
      gate: 'KNOWLEDGE_ENFORCE_GATE_DENY',
      sessionID: 'ses_dd758602effewIAvZMqnHi1VZO',
      messageID: 'msg_228a7b0a10013oTnFRCcfLUcVq',
      partID: 'prt_228a7b3e900195uHwIcRLzwW1p',
      callID: 'call_fake_7',
      tool: 'knowledge_probe',
      time: 1795978408950,
      directiveIds: ['KD-0001'],
      input: '{"topic":"db-migrations"}',
    });
    expect(denial?.message).toBe(deniedPart.state.error);
  });

  it('ignores allowed calls, running calls, text parts and ordinary tool failures', () => {
    expect(classifyToolPart(allowedPart)).toBeNull();
    expect(classifyToolPart({ ...deniedPart, state: { status: 'running', input: {}, time: { start: 1 } } })).toBeNull();
    expect(classifyToolPart({ type: 'text', text: 'KNOWLEDGE_ENFORCE_GATE_DENY: not a tool' })).toBeNull();
    expect(classifyToolPart({ ...deniedPart, state: { status: 'error', error: 'ENOENT: no such file' } })).toBeNull();
    expect(classifyToolPart(null)).toBeNull();
    expect(classifyToolPart({ type: 'tool', state: 'weird' })).toBeNull();
  });

  it('reads the real plugin message: several UUID directives before "require"', () => {
    const a = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
    const b = '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
    const error = `KNOWLEDGE_ENFORCE_GATE_DENY: phase_complete blocked — critical knowledge directive(s) ${a}, ${b} require KNOWLEDGE_APPLIED:<id>, KNOWLEDGE_IGNORED:<id> reason=..., or KNOWLEDGE_VIOLATED:<id> reason=... before this action.`;
    const denial = classifyToolPart({ ...deniedPart, tool: 'phase_complete', state: { status: 'error', error } });
    expect(denial?.directiveIds).toEqual([a, b]);
    expect(denial?.tool).toBe('phase_complete');
  });

  it('classifies every gate prefix of the chain, with the gate named without its colon', () => {
    const cases: [string, string, string | null][] = [
      ['BLOCKED: rm -rf / is destructive', 'BLOCKED', null],
      ['WRITE BLOCKED: no active agent', 'WRITE BLOCKED', null],
      ['[sandbox] BLOCKED: outside', '[sandbox] BLOCKED', null],
      ['SCOPE VIOLATION: src/x.ts is outside the task scope', 'SCOPE VIOLATION', null],
      ['TASK_COMPLETION_GATE_VIOLATION: reviewer missing', 'TASK_COMPLETION_GATE_VIOLATION', null],
      ['FULL_AUTO_DENY [budget]: over budget', 'FULL_AUTO_DENY', 'budget'],
      ['FULL_AUTO_ESCALATE_HUMAN: needs a human', 'FULL_AUTO_ESCALATE_HUMAN', null],
      ['🛑 LIMIT REACHED: 200 tool calls', 'LIMIT REACHED', null],
      ['Blocked by skill propagation gate: Delegating to coder without SKILLS field.', 'Blocked by skill propagation gate', null],
      ['Error: SPEC_DRIFT_BLOCK: spec changed', 'SPEC_DRIFT_BLOCK', null],
    ];
    for (const [error, gate, code] of cases) {
      const denial = classifyToolPart({ ...deniedPart, state: { status: 'error', error } });
      expect(denial, error).not.toBeNull();
      expect(denial?.gate).toBe(gate);
      expect(denial?.code).toBe(code);
    }
    expect(matchGatePrefix('BLOCKEDX: nope')).toBeNull();
    expect(matchGatePrefix('blocked: lower case is not the plugin')).toBeNull();
  });

  it('finds a PHASE_COMPLETE_BLOCKED verdict inside a completed tool output (JSON or plain)', () => {
    const id = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
    const json = JSON.stringify({
      success: false,
      reason: 'unresolved_critical_directives',
      message: `PHASE_COMPLETE_BLOCKED: unresolved critical knowledge directive(s): ${id}`,
    });
    const block = classifyToolPart({ ...allowedPart, tool: 'phase_complete', state: { ...allowedPart.state, output: json } });
    expect(block).toMatchObject({ kind: 'block', gate: 'PHASE_COMPLETE_BLOCKED', code: 'unresolved_critical_directives', directiveIds: [id] });
    expect(block?.message.startsWith('PHASE_COMPLETE_BLOCKED: unresolved')).toBe(true);

    const plain = classifyToolPart({
      ...allowedPart,
      state: { ...allowedPart.state, output: `phase 2\nPHASE_COMPLETE_BLOCKED: unresolved critical knowledge directive(s): KD-0007\nmore` },
    });
    expect(plain?.directiveIds).toEqual(['KD-0007']);
    expect(plain?.message).toBe('PHASE_COMPLETE_BLOCKED: unresolved critical knowledge directive(s): KD-0007');
  });
});

describe('parseDirectiveIds / parseAckMarkers', () => {
  it('does not take words of the sentence for ids', () => {
    expect(parseDirectiveIds('KNOWLEDGE_ENFORCE_GATE_DENY: missing sessionID on tool.execute.before; refusing to evaluate')).toEqual([]);
    expect(parseDirectiveIds('directive(s) KD-0001, KD-0002 and KD-0003 require ack')).toEqual(['KD-0001', 'KD-0002', 'KD-0003']);
  });

  it('reads acknowledgement markers', () => {
    expect(parseAckMarkers('ok KNOWLEDGE_APPLIED:KD-0001 and KNOWLEDGE_IGNORED: 3f2b8c1e reason=n/a')).toEqual([
      { verb: 'APPLIED', id: 'KD-0001' },
      { verb: 'IGNORED', id: '3f2b8c1e' },
    ]);
  });
});
