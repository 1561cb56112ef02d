import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const bin = path.join(__dirname, '..', '..', 'bin', 'durable-agent.js');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'spending-limit-cli-'));
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

/** The command with no server to reach: a bad value is refused before anything is started or sent. */
function cli(...args: string[]) {
  const env = { ...process.env, DURABLE_AGENT_HOME: home, TEMPORAL_ADDRESS: '127.0.0.1:1' };
  return spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', timeout: 60_000 });
}

test.each([
  [['run', '--max-cost', '-1', 'hi'], /--max-cost.*more than 0/],
  [['run', '--max-cost', 'ten', 'hi'], /--max-cost.*must be a number/],
  [['run', '--max-cost', '0', 'hi'], /--max-cost.*more than 0/],
  [['chat', 'sess-1', '--max-cost', 'NaN'], /--max-cost.*must be a number/],
  [['send', 'sess-1', 'hello', '--max-cost', '-5'], /--max-cost.*more than 0/],
  [['budget', 'p-1', '--add-usd', '0'], /--add-usd.*more than 0/],
  [['budget', 'p-1', '--add-usd', '2', '--stop'], /exactly one of --add-tokens TOKENS, --add-usd USD and --stop/],
])('%j is refused with a clear usage error (exit 42)', (args, message) => {
  const r = cli(...args);
  expect(r.stderr).toMatch(message);
  expect(r.status).toBe(42);
});
