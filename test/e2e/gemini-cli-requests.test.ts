/**
 * One task through Gemini CLI 0.61.0 and through durable-agent, both answered by one recording fake
 * Gemini server: the requests each program sends are compared fact by fact. Gemini CLI is installed into
 * the user's cache folder when missing (npm registry only). Run `npm run build` first: ours runs `dist/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse, type RecordedRequest } from '../../src/fake-gemini';
import type { ScriptLine } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { ensureGeminiCli, makeGeminiHome, runGeminiCli } from '../helpers/gemini-cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(600_000);

const sandbox = sandboxesCleanedAfterEach();
const TASK = 'Run `echo hi`, then say Done.';

/** The router's answer in both protocols: Gemini CLI's complexity score and our flash/pro choice. */
const classifier: ScriptLine = {
  method: 'generateContent',
  response: {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            {
              text: JSON.stringify({
                complexity_reasoning: 'One command.',
                complexity_score: 10,
                reasoning: 'One command.',
                model_choice: 'flash',
              }),
            },
          ],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
  },
};
const taskScript = [
  classifier,
  functionCallResponse({ name: 'run_shell_command', args: { command: 'echo hi' } }),
  textResponse('Done.'),
];

interface Recorded {
  gemini: RecordedRequest[];
  ours: RecordedRequest[];
}
/** The default-model task, and a one-turn prompt with `-m gemini-3-pro-preview`, per program. */
const runs: { task?: Recorded; retired?: Recorded } = {};

beforeAll(async () => {
  const entry = await ensureGeminiCli((msg) => process.stderr.write(`${msg}\n`));
  const fake = await FakeGeminiServer.start({ script: [], strict: false });
  try {
    const box = sandbox('gemini-requests', process.env[TEST_ENV_VARS.address]);
    const home = makeGeminiHome(path.join(box.dir, 'gemini-home'));
    userSkill([path.join(home, '.gemini', 'skills'), path.join(box.home, 'skills')]);
    // A queue of its own and a worker on it, pointed at the fake.
    const env = {
      GOOGLE_GEMINI_BASE_URL: fake.url,
      GEMINI_API_KEY: 'test-key',
      DURABLE_AGENT_TASK_QUEUE: `gemini-requests-${Date.now()}`,
    };
    const record = async (script: ScriptLine[], run: () => Promise<void>) => {
      fake.load(script);
      await run();
      return [...fake.requests];
    };
    const gemini = (prompt: string, model?: string) => () =>
      runGeminiCli({ entry, home, baseUrl: fake.url, workspace: box.workspace, prompt, model, answer: 'Done.' }).then(
        () => undefined,
      );
    const ours = (prompt: string, model?: string) => async () => {
      const result = await box.run(['-p', prompt, '-y', '-w', box.workspace, ...(model ? ['-m', model] : [])], {
        env,
        timeoutMs: 30_000,
      });
      expectExit(result, 0);
    };
    fs.writeFileSync(path.join(box.workspace, 'a.txt'), 'hello\n');
    box.start(['worker'], { env });
    runs.task = { gemini: await record(taskScript, gemini(TASK)), ours: await record(taskScript, ours(TASK)) };
    const retired = [textResponse('Done.')];
    runs.retired = {
      gemini: await record(retired, gemini('Say Done.', 'gemini-3-pro-preview')),
      ours: await record(retired, ours('Say Done.', 'gemini-3-pro-preview')),
    };
  } finally {
    await fake.close();
  }
});

const streams = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'generateContentStream');
const sideCalls = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'generateContent');
const configOf = (request: RecordedRequest) =>
  (request.body as { generationConfig?: Record<string, unknown> }).generationConfig;

test('the same default model: auto, routed by the same classifier model to the same main model', () => {
  const { gemini, ours } = runs.task!;
  expect(streams(gemini).map((r) => r.model)).toEqual(['gemini-3.8-flash', 'gemini-3.8-flash']);
  expect(streams(ours).map((r) => r.model)).toEqual(streams(gemini).map((r) => r.model));
  expect(sideCalls(gemini).map((r) => r.model)).toEqual(['gemini-3.5-flash-lite']);
  expect(sideCalls(ours).map((r) => r.model)).toEqual(sideCalls(gemini).map((r) => r.model));
});

test('gemini-3-pro-preview is sent as Gemini CLI sends it', () => {
  const { gemini, ours } = runs.retired!;
  expect(streams(gemini).map((r) => r.model)).toEqual(['gemini-3.1-pro-preview']);
  expect(streams(ours).map((r) => r.model)).toEqual(['gemini-3.1-pro-preview']);
});

test('the same generation config on main requests, on 3.x Pro and on the classifier', () => {
  const { gemini, ours } = runs.task!;
  const sampling = ['temperature', 'topP', 'topK', 'thinkingConfig', 'maxOutputTokens'];
  const pick = (config: Record<string, unknown> | undefined) =>
    Object.fromEntries(Object.entries(config ?? {}).filter(([key]) => sampling.includes(key)));
  expect(configOf(streams(ours)[0])).toEqual(configOf(streams(gemini)[0]));
  expect(configOf(streams(gemini)[0])).toMatchObject({ thinkingConfig: { includeThoughts: true } });
  expect(configOf(streams(runs.retired!.ours)[0])).toEqual(configOf(streams(runs.retired!.gemini)[0]));
  expect(pick(configOf(sideCalls(ours)[0]))).toEqual(pick(configOf(sideCalls(gemini)[0])));
});

// Skills and topics: one user skill, where each program reads its user's skills.
const SKILL = 'release-notes';

function userSkill(folders: string[]): void {
  const text = `---\nname: ${SKILL}\ndescription: Writes release notes from the git log.\n---\nRead git log.\n`;
  for (const folder of folders) {
    fs.mkdirSync(path.join(folder, SKILL), { recursive: true });
    fs.writeFileSync(path.join(folder, SKILL, 'SKILL.md'), text);
  }
}

test('skills and topics offered: the user skill in activate_skill and the system prompt, and update_topic', () => {
  const declared = (request: RecordedRequest) => {
    const body = request.body as {
      tools?: { functionDeclarations?: { name: string; parametersJsonSchema?: unknown }[] }[];
    };
    return (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
  };
  const system = (request: RecordedRequest) =>
    JSON.stringify((request.body as { systemInstruction?: unknown }).systemInstruction ?? '');
  for (const requests of [runs.task!.gemini, runs.task!.ours]) {
    const first = streams(requests)[0];
    const activate = declared(first).find((d) => d.name === 'activate_skill');
    expect(activate?.parametersJsonSchema).toMatchObject({
      properties: { name: { enum: expect.arrayContaining([SKILL]) } },
    });
    expect(system(first)).toContain(`<name>${SKILL}</name>`);
    expect(declared(first).map((d) => d.name)).toContain('update_topic');
  }
});
