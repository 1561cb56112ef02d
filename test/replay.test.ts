import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from '@temporalio/worker';
import { COST_REPLAY_SINKS } from '../src/worker/cost-total';
import { TEST_API_KEY } from './helpers/agent-harness';
import { closeTestEnv, getTestEnv } from './helpers/temporal-env';

/**
 * Invariant 1: every history recorded from the end-to-end tests (RECORD_HISTORIES=1 npm test)
 * replays with the current workflow code. A change that alters the command sequence of running
 * histories fails here unless it is guarded with `patched`.
 */
const dir = path.join(__dirname, 'histories');
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

afterAll(closeTestEnv);

test('there are recorded histories to replay', () => {
  expect(files.length).toBeGreaterThanOrEqual(8);
});

test.each(files)('%s replays deterministically', async (file) => {
  const { workflowBundle } = await getTestEnv();
  const history = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  await Worker.runReplayHistory({ workflowBundle, sinks: COST_REPLAY_SINKS }, history, file.replace(/\.json$/, ''));
});

test('no recorded history contains the API key the tests used (invariant 8)', () => {
  for (const file of files) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    expect(text.includes(TEST_API_KEY)).toBe(false);
    expect(text.includes(Buffer.from(TEST_API_KEY).toString('base64'))).toBe(false);
  }
});
