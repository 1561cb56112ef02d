import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHookProcess } from './run-command';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hook-cmd-'));
const base = { cwd: dir, env: { PATH: process.env.PATH ?? '' }, timeoutMs: 10_000 };

test(
  'the hook reads its input on stdin and answers on stdout; the environment and working directory are ' + 'set',
  async () => {
    const script = path.join(dir, 'echo.js');
    fs.writeFileSync(
      script,
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.stringify({seen:JSON.parse(s).tool_name,dir:process.env.GEMINI_PROJECT_DIR,cwd:process.cwd()})))",
    );
    const result = await runHookProcess({
      ...base,
      command: `node ${script}`,
      stdin: JSON.stringify({ tool_name: 'read_file' }),
      env: { ...base.env, GEMINI_PROJECT_DIR: dir },
    });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ seen: 'read_file', dir, cwd: fs.realpathSync(dir) });
  },
);

test('exit code and stderr come back as they were', async () => {
  const result = await runHookProcess({ ...base, command: 'echo "not allowed" >&2; exit 2', stdin: '{}' });
  expect(result).toMatchObject({ exitCode: 2, stderr: 'not allowed\n', timedOut: false });
});

test('a hook that does not read stdin still runs', async () => {
  const result = await runHookProcess({ ...base, command: 'echo ok', stdin: 'x'.repeat(1_000_000) });
  expect(result).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
});

test('at its timeout a hook gets SIGTERM, and SIGKILL after the grace period if it ignores SIGTERM', async () => {
  const polite = await runHookProcess({ ...base, command: 'sleep 30', stdin: '', timeoutMs: 200 });
  expect(polite).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
  const stubborn = await runHookProcess({
    ...base,
    command: "trap '' TERM; while true; do sleep 0.1; done",
    stdin: '',
    timeoutMs: 200,
    killGraceMs: 300,
  });
  expect(stubborn).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
});

test('output beyond the limit is cut and flagged', async () => {
  const result = await runHookProcess({ ...base, command: "head -c 200000 /dev/zero | tr '\\0' x", stdin: '' });
  expect(result.truncated).toBe(true);
  expect(result.stdout.length).toBe(64 * 1024);
});
