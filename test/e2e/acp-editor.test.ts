/**
 * What an editor is asked and shown beyond approvals: `ask_user` questions (as forms, or as
 * permission requests when the editor has no forms), answered in the editor, elsewhere, or by the
 * next editor; the built binary on real stdio with the ACP library's own client, the jest dev
 * server, a worker process and the fake Gemini server. Run `npm run build` first.
 */
import type { ClientCapabilities, ContentBlock } from '@agentclientprotocol/sdk';
import { hasPollers } from '../../src/client';
import { FakeGeminiServer, functionCallResponse, textResponse, type ScriptLine } from '../../src/fake-gemini';
import { messageText, permissionAsked, spawnAcp, type AcpEditor } from '../helpers/acp';
import { eventually, expectExit, sandboxesCleanedAfterEach, type Sandbox } from '../helpers/cli';
import { closeTestEnv, getTestEnv, TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sharedAddress = () => process.env[TEST_ENV_VARS.address] as string;
const sandbox = sandboxesCleanedAfterEach();
const fakes: FakeGeminiServer[] = [];
const editors: AcpEditor[] = [];
const running = (e: AcpEditor) => e.child.exitCode === null && e.child.signalCode === null;
afterEach(async () => {
  await Promise.all(editors.splice(0).map((e) => (running(e) ? e.close() : undefined)));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});
afterAll(() => closeTestEnv());

interface Setup {
  box: Sandbox;
  env: Record<string, string>;
  fake: FakeGeminiServer;
}

/** A sandbox with a worker on a queue of its own and the fake server answering `script`. */
async function setUp(name: string, script: ScriptLine[]): Promise<Setup> {
  const fake = await FakeGeminiServer.start({ script });
  fakes.push(fake);
  const box = sandbox(name, sharedAddress());
  const env = { GOOGLE_GEMINI_BASE_URL: fake.url, DURABLE_AGENT_TASK_QUEUE: `acp-${name}-${Date.now()}` };
  box.start(['worker'], { env });
  const { client } = await getTestEnv();
  await eventually(() => hasPollers(client, env.DURABLE_AGENT_TASK_QUEUE), 60_000, 'the worker polling');
  return { box, env, fake };
}

const FORMS: ClientCapabilities = { elicitation: { form: {} } };

async function editorOf(s: Setup, capabilities: ClientCapabilities = {}): Promise<AcpEditor> {
  const editor = await spawnAcp(s.box, s.env, ['acp'], capabilities);
  editors.push(editor);
  return editor;
}

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];

const DATABASE = {
  question: 'Which database should the service use?',
  header: 'Database',
  type: 'choice',
  options: [
    { label: 'Postgres', description: 'relational' },
    { label: 'SQLite', description: 'a file' },
  ],
};
const TESTS = { question: 'Should I add tests?', header: 'Tests', type: 'yesno' };

/** `value` as it appears inside a JSON string of the request body. */
const quoted = (value: unknown) => JSON.stringify(JSON.stringify(value)).slice(1, -1);

/** The `ask_user` function response the model was sent, as text. */
function answerSent(fake: FakeGeminiServer): string {
  const bodies = fake.requests.map((r) => JSON.stringify(r.body));
  return bodies.find((b) => b.includes('"functionResponse"') && b.includes('ask_user')) ?? '';
}

test('ask_user goes to the editor as a form; a wrong answer is asked again with why; the right one reaches the model', async () => {
  const s = await setUp('ask-form', [
    functionCallResponse({ name: 'ask_user', args: { questions: [DATABASE, TESTS] } }),
    textResponse('Postgres it is.'),
  ]);
  const editor = await editorOf(s, FORMS);
  const { sessionId } = await editor.connection.agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  let answers = 0;
  editor.elicit = async () =>
    answers++ === 0
      ? { action: 'accept', content: { '0': 'MongoDB', '1': true } }
      : { action: 'accept', content: { '0': 'Postgres', '1': false } };
  const response = await editor.connection.agent.request('session/prompt', { sessionId, prompt: text('set it up') });
  expect(response.stopReason).toBe('end_turn');
  expect(messageText(editor, sessionId)).toBe('Postgres it is.');
  expect(editor.elicited).toHaveLength(2);
  const [first, second] = editor.elicited.map((e) => e.request);
  expect(first).toMatchObject({
    mode: 'form',
    sessionId,
    message: 'The agent asks 2 questions.',
    requestedSchema: {
      properties: {
        '0': { type: 'string', title: 'Database', oneOf: [{ const: 'Postgres' }, { const: 'SQLite' }] },
        '1': { type: 'boolean', title: 'Tests' },
      },
      required: ['0', '1'],
    },
  });
  expect(second.message).toContain('field 0 (Database) needs one of "Postgres", "SQLite"');
  expect(answerSent(s.fake)).toContain(quoted({ answers: { 0: 'Postgres', 1: 'no' } }));
});

test('without forms each question is a permission request whose options are its answers', async () => {
  const s = await setUp('ask-permission', [
    functionCallResponse({ name: 'ask_user', args: { questions: [DATABASE] } }),
    textResponse('SQLite then.'),
  ]);
  const editor = await editorOf(s);
  const { sessionId } = await editor.connection.agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  editor.answer = async (request) => ({
    outcome: { outcome: 'selected', optionId: request.options.find((o) => o.name === 'SQLite')!.optionId },
  });
  const response = await editor.connection.agent.request('session/prompt', { sessionId, prompt: text('set it up') });
  expect(response.stopReason).toBe('end_turn');
  expect(editor.asked).toHaveLength(1);
  expect(editor.asked[0].request.toolCall.title).toBe(DATABASE.question);
  expect(editor.asked[0].request.options.map((o) => [o.name, o.kind])).toEqual([
    ['Postgres', 'allow_once'],
    ['SQLite', 'allow_once'],
    ['Decline to answer', 'reject_once'],
  ]);
  expect(answerSent(s.fake)).toContain(quoted({ answers: { 0: 'SQLite' } }));
});

test('a question open when the editor left is asked of the next; answered with `durable-agent answer`, withdrawn', async () => {
  const s = await setUp('ask-reload', [
    functionCallResponse({ name: 'ask_user', args: { questions: [TESTS] } }),
    textResponse('No tests, as you wish.'),
  ]);
  const first = await editorOf(s, FORMS);
  const { sessionId } = await first.connection.agent.request('session/new', { cwd: s.box.workspace, mcpServers: [] });
  void first.connection.agent.request('session/prompt', { sessionId, prompt: text('go') }).catch(() => undefined);
  await eventually(() => first.elicited[0], 60_000, 'the first editor asked');
  first.child.kill('SIGKILL');

  const second = await editorOf(s);
  await second.connection.agent.request('session/load', { sessionId, cwd: s.box.workspace, mcpServers: [] });
  const asked = await permissionAsked(second);
  expect(asked.request.toolCall.title).toBe(TESTS.question);
  expect(asked.request.options.map((o) => o.name)).toEqual(['yes', 'no', 'Decline to answer']);
  const callId = asked.request.toolCall.toolCallId;
  expectExit(await s.box.run(['answer', `${sessionId}-p1`, callId, '--answer', 'no'], { env: s.env }), 0);
  await eventually(() => asked.withdrawn, 60_000, 'the editor’s request withdrawn');
  await eventually(() => messageText(second, sessionId) === 'No tests, as you wish.', 60_000, 'the answer');
  expect(second.asked).toHaveLength(1);
  expect(answerSent(s.fake)).toContain(quoted({ answers: { 0: 'no' } }));
});
