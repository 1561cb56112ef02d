/**
 * `update_topic` through the binary: the chapters the model names show in stream-json, in `status`
 * (text and `--json`) and in `watch`, so a long unattended run reads as chapters. Run `npm run build`
 * first: the binary runs `dist/`.
 */
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const address = () => process.env[TEST_ENV_VARS.address] as string;

/** The binary's stream-json lines of one `-p` run, parsed. */
async function streamJson(box: ReturnType<typeof sandbox>, prompt: string, script: string) {
  const run = await box.run(['-p', prompt, '-o', 'stream-json', '--fake-responses', script]);
  expectExit(run, 0);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const opening = {
  title: 'Researching the parser',
  summary: 'Nothing done yet. This chapter finds where the parser times out.',
  strategic_intent: 'Read the parser tests first.',
};

test('chapters show in stream-json, status (text and --json) and watch', async () => {
  const box = sandbox('topics', address());
  const script = box.script([
    functionCallResponse({ name: 'update_topic', args: opening }),
    functionCallResponse({ name: 'update_topic', args: { strategic_intent: 'Now reproduce the timeout.' } }),
    functionCallResponse({ name: 'update_topic', args: { title: 'Fixing it', strategic_intent: 'Patch the loop.' } }),
    textResponse('Fixed.'),
  ]);
  const lines = await streamJson(box, 'fix the parser', script);
  const topics = lines.filter((l) => l.type === 'topic').map(({ timestamp: _t, ...rest }) => rest);
  expect(topics).toEqual([
    { type: 'topic', ...opening },
    { type: 'topic', strategic_intent: 'Now reproduce the timeout.' },
    { type: 'topic', title: 'Fixing it', strategic_intent: 'Patch the loop.' },
  ]);
  const results = lines.filter((l) => l.type === 'tool_result');
  expect(results).toHaveLength(3);
  expect(results.every((r) => r.status === 'success')).toBe(true);
  const id = lines[0].session_id as string;

  const json = await box.run(['status', id, '--json']);
  expectExit(json, 0);
  expect(JSON.parse(json.stdout)).toMatchObject({
    status: 'completed',
    topics: [
      { title: opening.title, summary: opening.summary, intent: 'Now reproduce the timeout.', turn: 1 },
      { title: 'Fixing it', intent: 'Patch the loop.', turn: 3 },
    ],
  });
  const text = await box.run(['status', id]);
  expectExit(text, 0);
  expect(text.stdout).toContain(
    `  topics:\n    1. ${opening.title}: ${opening.summary}\n    2. Fixing it (now: Patch the loop.)\n`,
  );

  const watch = await box.run(['watch', id]);
  expectExit(watch, 0);
  expect(watch.stderr).toContain(`[topic] ${opening.title}: Read the parser tests first.`);
  expect(watch.stderr).toContain('[intent] Now reproduce the timeout.');
  expect(watch.stderr).toContain('[topic] Fixing it: Patch the loop.');
});

test('an update_topic without strategic_intent goes back to the model as a parameter error', async () => {
  const box = sandbox('topics-bad', address());
  const script = box.script([
    functionCallResponse({ name: 'update_topic', args: { title: 'No intent' } }),
    textResponse('Sorry.'),
  ]);
  const result = (await streamJson(box, 'go', script)).find((l) => l.type === 'tool_result');
  expect(result).toMatchObject({ status: 'error', error: { message: expect.stringMatching(/strategic_intent/) } });
});
