/**
 * Issue 15's "Done when", as one run of the real binary: a trusted workspace with GEMINI.md files,
 * an MCP server in its settings and an `@file` reference in the prompt. The memory and the file are
 * in the first request, the MCP tool is offered under its Gemini CLI name and its result reaches the
 * model, the todo list shows in `status --json`, and the model's question is answered with the
 * stock `temporal workflow signal`. Run `npm run build` first: the binary runs `dist/`.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import { expectExit, NAMED_MODEL, sandboxesCleanedAfterEach } from '../helpers/cli';
import { stdioServer } from '../helpers/mcp-servers';
import { QUESTIONS } from '../helpers/questions';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const TODOS = [
  { description: 'Read the release notes', status: 'completed' },
  { description: 'Ask which database to use', status: 'in_progress' },
];

type Body = {
  systemInstruction: { parts: { text: string }[] };
  contents: { parts: { text?: string; functionResponse?: { name: string; response: unknown } }[] }[];
  tools: { functionDeclarations: { name: string }[] }[];
};

test('GEMINI.md, an MCP server, @file, todos and a question answered by signal, end to end', async () => {
  const fake = await FakeGeminiServer.start({
    script: [
      functionCallResponse([
        { name: 'write_todos', args: { todos: TODOS } },
        { name: 'mcp_local_echo', args: { text: 'echoed by MCP' } },
      ]),
      functionCallResponse({ name: 'ask_user', args: { questions: QUESTIONS } }),
      textResponse('Release planned on Postgres.'),
    ],
  });
  try {
    const box = sandbox('issue15-scenario', process.env[TEST_ENV_VARS.address]);
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    };
    write(path.join(box.home, 'GEMINI.md'), 'User memory: answer briefly.\n');
    write(path.join(box.workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    write(path.join(box.workspace, 'GEMINI.md'), 'Project memory: releases go out on Fridays.\n');
    write(path.join(box.workspace, 'api', 'GEMINI.md'), 'Subfolder memory: the API is versioned.\n');
    write(path.join(box.workspace, 'notes.md'), 'Release notes: version 7.\n');
    write(
      path.join(box.workspace, '.durable-agent', 'settings.json'),
      JSON.stringify({ mcpServers: { local: stdioServer() } }),
    );
    const env = {
      GOOGLE_GEMINI_BASE_URL: fake.url,
      DURABLE_AGENT_TASK_QUEUE: `issue15-${Date.now()}`,
      DURABLE_AGENT_TRUST_WORKSPACE: '1',
    };
    const args = [
      'run',
      'Plan the release from @notes.md',
      ...NAMED_MODEL,
      '-w',
      box.workspace,
      '--approval-mode',
      'yolo',
    ];
    const run = box.start(args, { env });
    const [, id, callId] = await run.waitFor('stderr', /durable-agent answer (\S+) (\S+) --answer/);

    const status = await box.run(['status', id, '--json']);
    expectExit(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'awaiting_answer', todos: TODOS });

    const input = JSON.stringify({ callId, answers: ['Postgres', '5432'] });
    const signal = ['workflow', 'signal', '--workflow-id', id, '--name', 'answerQuestion', '--input', input];
    const cli = process.env[TEST_ENV_VARS.cliPath] as string;
    await promisify(execFile)(cli, [...signal, '--address', process.env[TEST_ENV_VARS.address] as string]);
    const result = await run.done;
    expectExit(result, 0);
    expect(result.stdout).toContain('Release planned on Postgres.');

    const [first, second, third] = fake.requests.map((r) => r.body as Body);
    const system = first.systemInstruction.parts.map((p) => p.text).join('');
    for (const memory of ['User memory: answer briefly.', 'Project memory: releases', 'Subfolder memory: the API'])
      expect(system).toContain(memory);
    expect(JSON.stringify(first.contents[0])).toContain('Release notes: version 7.');
    expect(first.tools[0].functionDeclarations.map((d) => d.name)).toContain('mcp_local_echo');
    const mcpAnswer = second.contents.at(-1)!.parts.find((p) => p.functionResponse?.name === 'mcp_local_echo');
    expect(JSON.stringify(mcpAnswer)).toContain('echoed by MCP');
    expect(JSON.stringify(third.contents.at(-1))).toContain(
      JSON.stringify(JSON.stringify({ answers: { '0': 'Postgres', '1': '5432' } })),
    );
    fake.assertComplete();
  } finally {
    await fake.close();
  }
});
