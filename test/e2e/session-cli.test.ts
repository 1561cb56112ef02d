import { textResponse } from '../../src/fake-gemini';
import { createSandbox, NAMED_MODEL } from '../helpers/cli';
import { TEST_ENV_VARS, closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';
import { closeSessionSignal } from '../../src/workflows/api';
import { promptResultOnceStarted } from '../helpers/session-prompts';
import { withoutSessionContext } from '../helpers/sent-parts';

type Sent = { contents: { role: string; parts: { text?: string }[] }[] };

/** `run --session` and `send` through the binary, served by this file's worker (its fake model). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('session-cli');
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
});

test('run --session continues one conversation across runs, and send queues the next prompt', async () => {
  const box = createSandbox('session-cli', process.env[TEST_ENV_VARS.address]);
  const env = { DURABLE_AGENT_TASK_QUEUE: h.taskQueue, GOOGLE_GEMINI_BASE_URL: h.fake.url };
  h.fake.load([textResponse('First answer.'), textResponse('Second answer.'), textResponse('Third answer.')]);
  const session = `chat-${Date.now()}`;
  const first = await box.run(
    ['run', '--session', session, 'first question', '--approval-mode', 'yolo', ...NAMED_MODEL, '-w', box.workspace],
    { env },
  );
  expect(first.code).toBe(0);
  expect(first.stdout.trim()).toBe('First answer.');
  const second = await box.run(
    ['run', '--session', session, 'second question', '--approval-mode', 'yolo', ...NAMED_MODEL, '-w', box.workspace],
    { env },
  );
  expect(second.stdout.trim()).toBe('Second answer.');
  const sent = (h.fake.requests[1].body as Sent).contents.map(
    (c) => `${c.role}:${withoutSessionContext(c.parts)[0].text}`,
  );
  expect(sent).toEqual(['user:first question', 'model:First answer.', 'user:second question']);
  const queued = await box.run(['send', session, 'third question'], { env });
  expect(queued.stdout.trim()).toBe(`${session}-p3`);
  const third = await promptResultOnceStarted(h.env.client, `${session}-p3`, 200);
  expect(third.response).toBe('Third answer.');
  const empty = await box.run(['send', session, '  '], { env });
  expect(empty.code).toBe(42);
  await h.env.client.workflow.getHandle(session).terminate('test over');
});

test('run --session on a closed session is refused and its conversation is left alone', async () => {
  const box = createSandbox('session-cli-closed', process.env[TEST_ENV_VARS.address]);
  const env = { DURABLE_AGENT_TASK_QUEUE: h.taskQueue, GOOGLE_GEMINI_BASE_URL: h.fake.url };
  h.fake.load([textResponse('Only answer.')]);
  const session = `closed-${Date.now()}`;
  const first = await box.run(
    ['run', '--session', session, 'question', '--approval-mode', 'yolo', ...NAMED_MODEL, '-w', box.workspace],
    { env },
  );
  expect(first.code).toBe(0);
  await h.env.client.workflow.getHandle(session).signal(closeSessionSignal);
  await h.env.client.workflow.getHandle(session).result();
  const again = await box.run(
    ['run', '--session', session, 'one more', '--approval-mode', 'yolo', ...NAMED_MODEL, '-w', box.workspace],
    { env },
  );
  expect(again.code).toBe(42);
  expect(again.stderr).toContain(`session ${session} is closed`);
  expect(h.fake.requests).toHaveLength(1);
});
