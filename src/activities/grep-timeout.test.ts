/**
 * A catastrophic regular expression given to grep_search is stopped by the configured time limit and
 * reported to the model as an error result, and the worker stays responsive: its event loop keeps
 * turning during the search, and the next tool call works.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ToolOutcome } from '../core/types';
import { FileTranscriptStore } from '../store/file-store';
import { quietActivityEnv } from '../../test/helpers/activity-harness';
import { createActivities } from '.';

let dir: string;
let store: FileTranscriptStore;
let workspace: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'da-grep-timeout-'));
  store = new FileTranscriptStore(path.join(dir, 'store'));
  workspace = path.join(dir, 'ws');
  await fs.mkdir(workspace);
  // `^(a+)+$` tries every split of the a's before failing on the b: 2^40 steps, hours of CPU.
  await fs.writeFile(path.join(workspace, 'evil.txt'), `${'a'.repeat(40)}b\nfine line\n`);
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

async function response(outcome: ToolOutcome): Promise<{ output?: string; error?: string }> {
  return JSON.parse(await store.getBlob(outcome.responseRef ?? ''));
}

test('a catastrophic pattern times out with an error result, and the worker stays responsive', async () => {
  const activities = createActivities({ models: {} as never, store, grepTimeoutMs: 300 });
  const call = (callId: string, args: Record<string, unknown>): Promise<ToolOutcome> =>
    quietActivityEnv().run(activities.runTool, {
      callId,
      name: 'grep_search',
      args,
      workspace,
      shellTimeoutMs: 60_000,
    });
  let ticks = 0;
  const ticker = setInterval(() => (ticks += 1), 20);
  try {
    const slow = await call('call_1_0', { pattern: '^(a+)+$' });
    expect(ticks).toBeGreaterThan(0);
    expect(slow).toMatchObject({ ok: false, errorKind: 'search_timeout' });
    expect((await response(slow)).error).toMatch(/pattern "\^\(a\+\)\+\$" .* too slow .* Simplify the pattern/s);
    const next = await call('call_2_0', { pattern: 'fine' });
    expect(next.ok).toBe(true);
    expect((await response(next)).output).toContain('L2: fine line');
  } finally {
    clearInterval(ticker);
  }
});
