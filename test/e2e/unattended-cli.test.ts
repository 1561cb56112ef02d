/**
 * Issue 14 through the binary: a run nobody watches ends by itself. Run `npm run build` first: the
 * binary runs `dist/`.
 */
import { createHash } from 'node:crypto';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const TRUSTED = { DURABLE_AGENT_TRUST_WORKSPACE: '1' };

test('`run` in default mode with nobody approving: a 6,000-character investigator report, then read_tool_output on it, exit 0', async () => {
  const box = sandbox('unattended', process.env[TEST_ENV_VARS.address]);
  const summary = Array.from({ length: 150 }, (_, i) => `Finding ${String(i).padStart(4, '0')}: `.padEnd(39, '.')).join(
    ' ',
  );
  expect(summary).toHaveLength(5999);
  // The report's summary is stored under the hash of its text: what a masked output would name.
  const ref = `sha256:${createHash('sha256').update(summary).digest('hex')}`;
  const report = { SummaryOfFindings: summary, ExplorationTrace: ['listed the root'], RelevantLocations: [] };
  const script = box.script([
    functionCallResponse({ name: 'invoke_agent', args: { agent_name: 'codebase_investigator', prompt: 'map it' } }),
    functionCallResponse({ name: 'complete_task', args: { report } }),
    functionCallResponse({ name: 'read_tool_output', args: { ref, offset: 5960 } }),
    textResponse('The last finding is 0149.'),
  ]);
  const result = await box.run(
    ['run', 'map the code', '--fake-responses', script, '-o', 'stream-json', '--approval-timeout', '10'],
    { env: TRUSTED, timeoutMs: 120_000 },
  );
  expectExit(result, 0);
  const lines = result.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; status?: string; output?: string; content?: string });
  const results = lines.filter((l) => l.type === 'tool_result');
  expect(results.map((l) => l.status)).toEqual(['success', 'success']);
  expect(results[1].output).toContain('Finding 0149: ');
  expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'success' });
  expect(lines.some((l) => l.type === 'message' && l.content?.includes('The last finding is 0149.'))).toBe(true);
});
