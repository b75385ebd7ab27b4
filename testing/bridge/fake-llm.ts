import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback OpenAI-compatible chat-completions server that drives OpenCode without a real model
 * (adapted from the team's tested fake; docs/plugin-formats.md#opencode-event-stream). The scenario comes from the last user
 * message:
 *   "CALL <tool> <json-args>"                    one tool call, then a final text quoting the result
 *   "CALL <tool> <json> THEN <json> [THEN …]"    after each tool result, call the same tool again with the
 *                                                next arguments (an agent that acknowledges and retries)
 *   anything else                                a plain text answer
 * Requests without tools (OpenCode's title generator) get "Fake title".
 */
export interface FakeLlm {
  readonly baseUrl: string;
  readonly requests: FakeLlmRequest[];
  close(): Promise<void>;
}

export interface FakeLlmRequest {
  tools: string[];
  roles: string[];
  plan: Plan;
}

type Plan = { text: string } | { tool: string; args: string };

interface ChatMessage {
  role?: string;
  content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: { text?: string }) => c?.text ?? '').join('');
  return '';
}

export function planReply(body: { messages?: ChatMessage[]; tools?: { function?: { name?: string } }[] }): Plan {
  const msgs = body.messages ?? [];
  const tools = (body.tools ?? []).map((t) => t.function?.name);
  if (!tools.length) return { text: 'Fake title' };
  let lastUserIndex = -1;
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i]?.role === 'user') {
      lastUserIndex = i;
      break;
    }
  }
  const userText = textOf(msgs[lastUserIndex]?.content);
  const toolResults = msgs.slice(lastUserIndex + 1).filter((m) => m.role === 'tool');
  const m = /CALL\s+(\S+)\s*(\{.*\})?/s.exec(userText);
  if (m) {
    const steps = (m[2] ?? '{}').split(/\s+THEN\s+/);
    const step = steps[toolResults.length];
    if (step !== undefined) return { tool: m[1] as string, args: step };
    return { text: `FAKE-FINAL: the tool answered: ${textOf(toolResults.at(-1)?.content).slice(0, 300)}` };
  }
  return { text: `FAKE-TEXT: you said ${JSON.stringify(userText.slice(0, 80))}` };
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: FakeLlmRequest[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      if (req.method === 'GET' && req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-1', object: 'model' }] }));
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw || '{}');
      } catch {
        // an unparsable request gets the plain-text path
      }
      const plan = planReply(body as Parameters<typeof planReply>[0]);
      const id = `chatcmpl-fake-${++n}`;
      requests.push({
        tools: ((body.tools as { function?: { name?: string } }[] | undefined) ?? []).map((t) => t.function?.name ?? ''),
        roles: ((body.messages as ChatMessage[] | undefined) ?? []).map((m) => m.role ?? ''),
        plan,
      });
      const created = Math.floor(Date.now() / 1000);
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      const toolCallId = `call_fake_${n}`;
      if (!body.stream) {
        const message =
          'tool' in plan
            ? { role: 'assistant', content: null, tool_calls: [{ id: toolCallId, type: 'function', function: { name: plan.tool, arguments: plan.args } }] }
            : { role: 'assistant', content: plan.text };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created,
            model: body.model,
            choices: [{ index: 0, message, finish_reason: 'tool' in plan ? 'tool_calls' : 'stop' }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      const send = (delta: unknown, finish: string | null = null) =>
        res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      send({ role: 'assistant', content: '' });
      if ('tool' in plan) {
        send({ tool_calls: [{ index: 0, id: toolCallId, type: 'function', function: { name: plan.tool, arguments: '' } }] });
        send({ tool_calls: [{ index: 0, function: { arguments: plan.args } }] });
        send({}, 'tool_calls');
      } else {
        for (const piece of plan.text.match(/.{1,20}/gs) ?? []) send({ content: piece });
        send({}, 'stop');
      }
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
