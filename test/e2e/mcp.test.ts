import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { answerEvery } from '../helpers/approvals';
import { createHarness, maybeRecordHistory, type Harness } from '../helpers/agent-harness';
import { startHttpServer, startSseServer, stdioServer } from '../helpers/mcp-servers';
import { generalistAgent } from '../../src/core/agents/builtins';
import { unfenced } from '../helpers/sent-parts';

type Sent = {
  contents: { parts: { functionResponse?: { name: string; response: { output?: string; error?: string } } }[] }[];
  tools?: { functionDeclarations: { name: string; parametersJsonSchema?: unknown }[] }[];
  systemInstruction?: unknown;
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness('mcp');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const sent = (i: number) => h.fake.requests[i].body as Sent;
const offered = (i: number) => (sent(i).tools ?? []).flatMap((t) => t.functionDeclarations.map((d) => d.name));
const responsesIn = (i: number) =>
  (sent(i).contents.at(-1)!.parts ?? []).map((p) => ({
    name: p.functionResponse!.name,
    ...p.functionResponse!.response,
    // Every MCP result reaches the model fenced; the assertions read what is inside.
    ...('output' in p.functionResponse!.response
      ? { output: unfenced(p.functionResponse!.response.output as string, 'mcp') }
      : {}),
  }));
const warnings = (run: { events: { type: string }[] }) =>
  run.events.filter((e): e is { type: 'warning'; message: string } => e.type === 'warning').map((e) => e.message);

test('a stdio MCP server: its tools are offered under Gemini CLI names and a call reaches the model', async () => {
  const run = await h.run(
    [functionCallResponse({ name: 'mcp_test_echo', args: { text: 'hello' } }), textResponse('done')],
    { mcpServers: { test: stdioServer() } },
  );
  expect(run.result?.response).toBe('done');
  expect(offered(0)).toEqual(expect.arrayContaining(['read_file', 'mcp_test_echo', 'mcp_test_add', 'mcp_test_slow']));
  const echo = sent(0).tools![0].functionDeclarations.find((d) => d.name === 'mcp_test_echo');
  expect(echo?.parametersJsonSchema).toMatchObject({ type: 'object', required: ['text'] });
  expect(responsesIn(1)).toEqual([{ name: 'mcp_test_echo', output: 'echo: hello' }]);
  // The invalid schema is left out with a warning; everything else goes on.
  expect(offered(0)).not.toContain('mcp_test_broken');
  expect(warnings(run).join('\n')).toMatch(/MCP server "test": tool "broken" left out: inputSchema\.type/);
  // The declarations went by reference: they are not in the prompt's history.
  const history = JSON.stringify(await h.env.client.workflow.getHandle(run.workflowId).fetchHistory());
  expect(history).not.toContain('Echoes its text.');
  await maybeRecordHistory(h, run.workflowId, 'mcp-stdio');
});

test('a streamable HTTP MCP server, with includeTools, excludeTools and a read-only tool', async () => {
  const server = await startHttpServer();
  try {
    const config = { httpUrl: server.url, includeTools: ['add', 'echo', 'fail'], excludeTools: ['fail'] };
    const run = await h.run(
      [functionCallResponse({ name: 'mcp_web_add', args: { a: 2, b: 40 } }), textResponse('42')],
      {
        mcpServers: { web: config },
      },
    );
    expect(run.result?.response).toBe('42');
    expect(offered(0).filter((n) => n.startsWith('mcp_'))).toEqual(['mcp_web_echo', 'mcp_web_add']);
    expect(responsesIn(1)).toEqual([{ name: 'mcp_web_add', output: '42' }]);
    expect(server.requests).toBeGreaterThan(0);
  } finally {
    await server.close();
  }
});

test('a stdio server starts in the workspace (or its cwd) with its env, $VAR expanded on the worker but no secret', async () => {
  const ws = h.workspace({ 'sub/x.txt': 'x' });
  process.env.MCP_TEST_WORD = 'from-the-worker';
  process.env.MCP_TEST_SECRET = '-leaked';
  const config = stdioServer({ env: { GREETING: 'hi ${MCP_TEST_WORD}${MCP_TEST_SECRET}$GEMINI_API_KEY' } });
  const run = await h.run(
    [
      functionCallResponse({ name: 'mcp_a_env', args: { name: 'GREETING' } }),
      functionCallResponse({ name: 'mcp_b_env', args: { name: 'GREETING' } }),
      textResponse('ok'),
    ],
    { workspace: ws, mcpServers: { a: config, b: { ...config, cwd: 'sub' } } },
  );
  expect(run.result?.response).toBe('ok');
  expect(responsesIn(1)[0].output).toBe(`GREETING=hi from-the-worker cwd=${ws}`);
  expect(responsesIn(2)[0].output).toBe(`GREETING=hi from-the-worker cwd=${path.join(ws, 'sub')}`);
});

test('MCP calls ask in default mode unless the server is trusted; mcp_<server>_* rules decide', async () => {
  const mcpServers = { ask: stdioServer(), trusted: stdioServer({ trust: true }), banned: stdioServer() };
  const handle = await h.start(
    [
      functionCallResponse({ name: 'mcp_ask_echo', args: { text: 'a' } }),
      functionCallResponse({ name: 'mcp_trusted_echo', args: { text: 'b' } }),
      functionCallResponse({ name: 'mcp_banned_echo', args: { text: 'c' } }),
      textResponse('done'),
    ],
    {
      approvalMode: 'default',
      mcpServers,
      policyRules: [{ toolName: 'mcp_banned_*', decision: 'deny', priority: 10, tier: 'user' }],
    },
  );
  const asked = await answerEvery(handle, () => ({ outcome: 'proceed_once' }));
  const run = await h.finish(handle);
  expect(asked.map((c) => c.name)).toEqual(['mcp_ask_echo']);
  expect(responsesIn(1)).toEqual([{ name: 'mcp_ask_echo', output: 'echo: a' }]);
  expect(responsesIn(2)).toEqual([{ name: 'mcp_trusted_echo', output: 'echo: b' }]);
  expect(responsesIn(3)[0].error).toMatch(/denied by policy/i);
  expect(run.result?.response).toBe('done');
});

test('bad MCP servers and results: a clear warning or error result each, and the prompt goes on', async () => {
  const hang = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeout: 500 };
  const run = await h.run(
    [
      functionCallResponse([
        { name: 'mcp_ok_fail', args: {} },
        { name: 'mcp_ok_malformed', args: {} },
        { name: 'mcp_ok_echo', args: { text: 'still here' } },
        { name: 'mcp_gone_echo', args: { text: 'x' } },
      ]),
      textResponse('survived'),
    ],
    { mcpServers: { ok: stdioServer(), gone: { command: '/no/such/mcp-server' }, hang } },
  );
  expect(run.result?.response).toBe('survived');
  const lines = warnings(run).join('\n');
  expect(lines).toMatch(/MCP server "gone" could not be used: .*ENOENT/);
  expect(lines).toMatch(/MCP server "hang" could not be used: .*timed out/i);
  const [fail, malformed, echo, gone] = responsesIn(1);
  expect(unfenced(fail.error as string, 'mcp')).toBe('the fail tool failed on purpose');
  expect(malformed.error).toMatch(/MCP server "ok" failed on tool "malformed": .*Invalid tools\/call result/);
  expect(echo.output).toBe('echo: still here');
  expect(gone.error).toMatch(/Tool "mcp_gone_echo" not found/);
  expect(fs.existsSync('/no/such/mcp-server')).toBe(false);
});

test('a stdio server that exits is started again by the next call (the pool reconnects)', async () => {
  const run = await h.run(
    [
      functionCallResponse({ name: 'mcp_q_quit', args: {} }),
      functionCallResponse({ name: 'mcp_q_echo', args: { text: 'back' } }),
      functionCallResponse({ name: 'mcp_q_quit', args: {} }),
      textResponse('done'),
    ],
    { mcpServers: { q: stdioServer() } },
  );
  expect(run.result?.response).toBe('done');
  const first = responsesIn(1)[0].output!;
  expect(responsesIn(2)).toEqual([{ name: 'mcp_q_echo', output: 'echo: back' }]);
  const second = responsesIn(3)[0].output!;
  expect(first).toMatch(/^quitting \d+$/);
  expect(second).toMatch(/^quitting \d+$/);
  expect(second).not.toBe(first);
});

test('an SSE MCP server (url)', async () => {
  const server = await startSseServer();
  try {
    const run = await h.run(
      [functionCallResponse({ name: 'mcp_old_echo', args: { text: 'sse' } }), textResponse('ok')],
      {
        mcpServers: { old: { url: server.url } },
      },
    );
    expect(run.result?.response).toBe('ok');
    expect(responsesIn(1)).toEqual([{ name: 'mcp_old_echo', output: 'echo: sse' }]);
  } finally {
    await server.close();
  }
});

test('MCP resources: list_mcp_resources and read_mcp_resource are offered and run without asking', async () => {
  const handle = await h.start(
    [
      functionCallResponse({ name: 'list_mcp_resources', args: {} }),
      functionCallResponse({ name: 'read_mcp_resource', args: { uri: 'test://notes' } }),
      functionCallResponse({ name: 'read_mcp_resource', args: { uri: 'test://missing' } }),
      textResponse('read'),
    ],
    { approvalMode: 'default', mcpServers: { docs: stdioServer() } },
  );
  const asked = await answerEvery(handle, () => ({ outcome: 'cancel' }));
  const run = await h.finish(handle);
  expect(asked).toEqual([]);
  expect(offered(0)).toEqual(expect.arrayContaining(['list_mcp_resources', 'read_mcp_resource']));
  expect(responsesIn(1)).toEqual([{ name: 'list_mcp_resources', output: 'docs: test://notes (notes, text/plain)' }]);
  expect(responsesIn(2)).toEqual([{ name: 'read_mcp_resource', output: 'the notes resource' }]);
  expect(responsesIn(3)[0].error).toMatch(
    /read_mcp_resource failed: resource test:\/\/missing could not be read \(docs: .*no resource/,
  );
  expect(run.result?.response).toBe('read');
});

test('proceed_always_server allows every tool of that server; proceed_always_tool only that tool', async () => {
  const handle = await h.start(
    [
      functionCallResponse({ name: 'mcp_a_echo', args: { text: '1' } }),
      functionCallResponse({ name: 'mcp_a_add', args: { a: 1, b: 1 } }),
      functionCallResponse({ name: 'mcp_b_echo', args: { text: '2' } }),
      functionCallResponse({ name: 'mcp_b_echo', args: { text: '3' } }),
      functionCallResponse({ name: 'mcp_b_add', args: { a: 2, b: 2 } }),
      textResponse('done'),
    ],
    { approvalMode: 'default', mcpServers: { a: stdioServer(), b: stdioServer() } },
  );
  const asked = await answerEvery(handle, (call) => ({
    outcome:
      call.name === 'mcp_a_echo'
        ? 'proceed_always_server'
        : call.name === 'mcp_b_echo'
          ? 'proceed_always_tool'
          : 'proceed_once',
  }));
  const run = await h.finish(handle);
  expect(asked.map((c) => c.name)).toEqual(['mcp_a_echo', 'mcp_b_echo', 'mcp_b_add']);
  expect(responsesIn(2)).toEqual([{ name: 'mcp_a_add', output: '2' }]);
  expect(responsesIn(5)).toEqual([{ name: 'mcp_b_add', output: '4' }]);
  expect(run.result?.response).toBe('done');
});

test('a sub-agent gets the MCP tools its definition names, from the parent’s discovery, under the same policy', async () => {
  const helper = {
    ...generalistAgent,
    name: 'mcp_helper',
    description: 'Uses the test server.',
    tools: ['read_file', 'mcp_test_e*', 'mcp_gone_tool'],
  };
  const handle = await h.start(
    [
      functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'mcp_helper', prompt: 'echo hi' } }),
      functionCallResponse({ name: 'mcp_test_echo', args: { text: 'from the child' } }),
      functionCallResponse({ name: 'complete_task', args: { result: 'echoed' } }),
      textResponse('done'),
    ],
    { mcpServers: { test: stdioServer() }, agents: [helper], approvalMode: 'default' },
  );
  const asked = await answerEvery(handle, () => ({ outcome: 'proceed_once' }));
  expect(asked.map((c) => c.name)).toEqual(['mcp_test_echo']);
  const run = await h.finish(handle);
  expect(run.result?.response).toBe('done');
  expect(offered(1).sort()).toEqual(['complete_task', 'mcp_test_echo', 'mcp_test_env', 'read_file']);
  expect(responsesIn(2)).toEqual([{ name: 'mcp_test_echo', output: 'echo: from the child' }]);
  const discoveries = (await h.env.client.workflow.getHandle(run.workflowId).fetchHistory()).events!.filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'discoverMcpTools',
  );
  expect(discoveries).toHaveLength(1);
});
