import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { textResponse, type ScriptLine } from '../../src/fake-gemini';
import { withoutSessionContext } from '../helpers/sent-parts';
import { BIN, CliProcess, createSandbox, killAllCli, NAMED_MODEL, type Sandbox } from '../helpers/cli';
import { TEST_ENV_VARS, closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { answer } from '../helpers/hook-config';

type Sent = { contents: { role: string; parts: { text?: string }[] }[] };

/** Gemini CLI's chat commands and SessionStart messages, through the binary, on this file's worker. */
let h: Harness;
let box: Sandbox;
let env: Record<string, string>;
const LOG = 'hooks.jsonl';
beforeAll(async () => {
  h = await createHarness('chat-gemini');
  box = createSandbox('chat-gemini', process.env[TEST_ENV_VARS.address]);
  env = { DURABLE_AGENT_TASK_QUEUE: h.taskQueue, GOOGLE_GEMINI_BASE_URL: h.fake.url };
  const logged = (extra = '') => ({ type: 'command', command: `(cat; echo) >> "$GEMINI_PROJECT_DIR/${LOG}"${extra}` });
  const hooks = {
    SessionStart: [{ hooks: [logged(`; ${answer({ systemMessage: 'on call today: ana' })}`)] }],
    SessionEnd: [{ hooks: [logged()] }],
    PreCompress: [{ hooks: [logged()] }],
  };
  fs.mkdirSync(box.home, { recursive: true });
  fs.writeFileSync(path.join(box.home, 'settings.json'), JSON.stringify({ hooks }));
});
afterEach(() => killAllCli());
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

const json = (text: string): ScriptLine => ({
  method: 'generateContent',
  response: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }] },
});
const SNAPSHOT = '<state_snapshot>\n<overall_goal>ship it</overall_goal>\n</state_snapshot>';
/** `durable-agent chat ID` on the test's model, in yolo, with pipes for stdin and output. */
function chatChild(id: string) {
  return spawn(process.execPath, [BIN, 'chat', id, ...NAMED_MODEL, '--approval-mode', 'yolo', '-w', box.workspace], {
    cwd: box.dir,
    env: box.env(env),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
}

/** Each message as `role:text`, without the environment part a conversation's first message starts with. */
const conversation = (i: number) =>
  (h.fake.requests[i].body as Sent).contents.map(
    (c) =>
      `${c.role}:${withoutSessionContext(c.parts)
        .map((p) => p.text ?? '')
        .join('')}`,
  );
const hookLog = () =>
  fs
    .readFileSync(path.join(box.workspace, LOG), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, string>)
    .map((l) => `${l.hook_event_name}:${l.source ?? l.reason ?? l.trigger}`);

test(
  'chat: /compress compresses an idle session, /clear starts a fresh conversation in it (SessionEnd and ' +
    'SessionStart `clear`), an empty one has nothing to compress; SessionStart messages are shown',
  async () => {
    fs.rmSync(path.join(box.workspace, LOG), { force: true });
    const filler = 'Some earlier discussion of the code base and the plan. '.repeat(40);
    h.fake.load([textResponse('One.'), json(`draft ${SNAPSHOT}`), json(SNAPSHOT), textResponse('Two.')]);
    const id = `chat-gemini-${Date.now()}`;
    const child = chatChild(id);
    child.stdin!.end(`first ${filler}\n/compress\n/clear now\n/clear\n/compress\nsecond\n`);
    const result = await new CliProcess(child, 90_000).done;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('One.\nTwo.\n');
    expect(result.stderr).toMatch(/Chat history compressed from \d+ to \d+ tokens\./);
    expect(result.stderr).toContain('Nothing to compress.');
    expect(result.stderr).toContain('/clear takes no argument');
    expect(result.stderr.split('[hook SessionStart] on call today: ana')).toHaveLength(3);
    expect(conversation(3)).toEqual(['user:second']);
    // PreCompress (auto) fires at each prompt's compression check before its first request, as in
    // Gemini CLI, whose conversation never starts empty: here for `first` and for `second`.
    expect(hookLog()).toEqual([
      'SessionStart:startup',
      'PreCompress:auto',
      'PreCompress:manual',
      'SessionEnd:clear',
      'SessionStart:clear',
      'PreCompress:manual',
      'PreCompress:auto',
    ]);
  },
);

test('run --session shows the SessionStart systemMessage', async () => {
  h.fake.load([textResponse('Hi.')]);
  const result = await box.run(
    ['run', 'hello', '--session', `run-gemini-${Date.now()}`, ...NAMED_MODEL, '-w', box.workspace],
    {
      env,
    },
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('Hi.\n');
  expect(result.stderr).toContain('[hook SessionStart] on call today: ana');
});

test('chat: a /compress whose summary is larger than the history says so in Gemini CLI 0.61.0’s words', async () => {
  const bloated = `<state_snapshot>\n<overall_goal>${'keep every detail '.repeat(1000)}</overall_goal>\n</state_snapshot>`;
  h.fake.load([textResponse('One.'), json(bloated), json(bloated)]);
  const id = `chat-gemini-inflated-${Date.now()}`;
  const child = chatChild(id);
  // Enough history to be worth a summary (a shorter one has "Nothing to compress." and no model call).
  child.stdin!.end(`first ${'Some earlier discussion. '.repeat(100)}\n/compress\n`);
  const result = await new CliProcess(child, 90_000).done;
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('Compression was not beneficial for this history size.\n');
});
