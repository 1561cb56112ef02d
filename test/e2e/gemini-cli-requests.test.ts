/**
 * One task through Gemini CLI 0.61.0 and through durable-agent, both answered by one recording fake
 * Gemini server: the requests each program sends are compared fact by fact. Gemini CLI is installed into
 * the user's cache folder when missing (npm registry only). Run `npm run build` first: ours runs `dist/`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse, type RecordedRequest } from '../../src/fake-gemini';
import type { ScriptLine } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { ensureGeminiCli, makeGeminiHome, runGeminiCli } from '../helpers/gemini-cli';
import { PLAN_MODE_TOPIC, PROMPT_TOPICS, UNATTENDED_AMBIGUITY } from '../helpers/prompt-topics';
import { unfenced } from '../helpers/sent-parts';
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
const runs: { task?: Recorded; retired?: Recorded; plan?: RecordedRequest[] } = {};

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
    const ours =
      (prompt: string, model?: string, mode = ['-y']) =>
      async () => {
        const result = await box.run(['-p', prompt, ...mode, '-w', box.workspace, ...(model ? ['-m', model] : [])], {
          env,
          timeoutMs: 30_000,
        });
        expectExit(result, 0);
      };
    fs.writeFileSync(path.join(box.workspace, 'a.txt'), 'hello\n');
    // A repository, as most projects are: both programs add their git guidance only inside one.
    execFileSync('git', ['init', '-q', box.workspace]);
    box.start(['worker'], { env });
    runs.task = { gemini: await record(taskScript, gemini(TASK)), ours: await record(taskScript, ours(TASK)) };
    const retired = [textResponse('Done.')];
    runs.retired = {
      gemini: await record(retired, gemini('Say Done.', 'gemini-3-pro-preview')),
      ours: await record(retired, ours('Say Done.', 'gemini-3-pro-preview')),
    };
    runs.plan = await record(retired, ours('Say Done.', 'gemini-3.8-flash', ['--approval-mode', 'plan']));
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
  const declarations = (request: RecordedRequest) => {
    const body = request.body as {
      tools?: { functionDeclarations?: { name: string; parametersJsonSchema?: unknown }[] }[];
    };
    return (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
  };
  const system = (request: RecordedRequest) =>
    JSON.stringify((request.body as { systemInstruction?: unknown }).systemInstruction ?? '');
  for (const requests of [runs.task!.gemini, runs.task!.ours]) {
    const first = streams(requests)[0];
    const activate = declarations(first).find((d) => d.name === 'activate_skill');
    expect(activate?.parametersJsonSchema).toMatchObject({
      properties: { name: { enum: expect.arrayContaining([SKILL]) } },
    });
    expect(system(first)).toContain(`<name>${SKILL}</name>`);
    expect(declarations(first).map((d) => d.name)).toContain('update_topic');
  }
});

// The system prompt, the environment and the fences: what the models were tuned to find in a request.
interface SentPart {
  text?: string;
  functionResponse?: { name: string; response: { output?: string } };
}
interface SentBody {
  systemInstruction?: { parts?: { text?: string }[] };
  contents: { role: string; parts: SentPart[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
}
const bodyOf = (request: RecordedRequest) => request.body as SentBody;
const systemText = (request: RecordedRequest) =>
  (bodyOf(request).systemInstruction?.parts ?? []).map((part) => part.text ?? '').join('\n');
const declared = (request: RecordedRequest) =>
  (bodyOf(request).tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map((d) => d.name);

describe('system prompt, workspace and fences', () => {
  test('a system instruction at least half the size of the one Gemini CLI sends on the same task', () => {
    const { gemini, ours } = runs.task!;
    const theirs = systemText(streams(gemini)[0]).length;
    const own = systemText(streams(ours)[0]).length;
    process.stderr.write(`system instruction: Gemini CLI ${theirs} characters, durable-agent ${own}\n`);
    expect(theirs).toBeGreaterThan(10_000);
    expect(own).toBeGreaterThanOrEqual(theirs / 2);
  });

  // An unattended run (no terminal) settles an ambiguity itself, and says so, instead of asking.
  const headless: Record<string, RegExp[]> = {
    ...PROMPT_TOPICS,
    'core mandates: confirm ambiguity': UNATTENDED_AMBIGUITY,
  };
  test.each(Object.keys(headless))('the system instruction sent covers %s', (topic) => {
    const first = streams(runs.task!.ours)[0];
    // Skills are spoken of only when a skill is offered; the plain task offers none.
    if (topic === 'skills' && !declared(first).includes('activate_skill')) return;
    for (const pattern of headless[topic]) expect(systemText(first)).toMatch(pattern);
  });

  test('the system instruction sent covers the plan-mode variant in plan mode, and only there', () => {
    const plan = systemText(streams(runs.plan!)[0]);
    for (const pattern of PLAN_MODE_TOPIC) expect(plan).toMatch(pattern);
    expect(systemText(streams(runs.task!.ours)[0])).not.toMatch(PLAN_MODE_TOPIC[0]);
  });

  test('the first request carries the folder tree of the workspace', () => {
    const first = bodyOf(streams(runs.task!.ours)[0]).contents[0];
    const context = first.parts.find((part) => part.text?.startsWith('<session_context>'))?.text ?? '';
    expect(context).toMatch(/^\s*a\.txt$/m);
  });

  test('shell output reaches the model fenced as untrusted data', () => {
    const afterShell = bodyOf(streams(runs.task!.ours)[1]).contents;
    const response = afterShell.flatMap((c) => c.parts).find((p) => p.functionResponse)?.functionResponse;
    expect(response?.name).toBe('run_shell_command');
    expect(unfenced(response?.response.output, 'shell')).toMatch(/hi/);
  });
});
