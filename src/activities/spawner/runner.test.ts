import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createProcessRunner, type RunRequest } from './runner';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spawner-'));
const runner = createProcessRunner();
afterAll(() => runner.close());

const request = (command: string, extra: Partial<RunRequest> = {}): RunRequest => ({
  argv: ['bash', '-c', command],
  cwd: dir,
  env: { PATH: process.env.PATH ?? '', ONLY_THIS: 'yes' },
  timeoutMs: 10_000,
  killGraceMs: 500,
  ...extra,
});

async function run(command: string, extra: Partial<RunRequest> = {}, signal?: AbortSignal) {
  let stdout = '';
  const outcome = await runner.run(request(command, extra), {
    onOutput: (fd, data) => (stdout += fd === 1 ? data : ''),
    signal,
  });
  return { ...outcome, stdout };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test(
  'a command gets exactly the environment asked for; its parent is not this process and has an empty ' + 'environment',
  async () => {
    const result = await run('env; echo "parent=$PPID"; echo "parent-env=$(wc -c < /proc/$PPID/environ)"', {
      stdin: 'ignored',
    });
    expect(result).toMatchObject({ exitCode: 0, signal: null, timedOut: false, aborted: false });
    expect(result.stdout).toContain('ONLY_THIS=yes\n');
    expect(result.stdout).toContain('parent-env=0\n');
    expect(result.stdout).not.toContain(`parent=${process.pid}\n`);
  },
);

test('stdin is handed over; stderr comes back separately', async () => {
  let out = '';
  let err = '';
  const argv = ['bash', '--norc', '-c', 'cat; echo oops >&2; exit 3'];
  const outcome = await runner.run(request('', { argv, stdin: 'hello' }), {
    onOutput: (fd, d) => (fd === 1 ? (out += d) : (err += d)),
  });
  expect(outcome.exitCode).toBe(3);
  expect(out).toBe('hello');
  expect(err).toBe('oops\n');
});

test('an abort stops the process group', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const result = await run('sleep 30', {}, controller.signal);
  expect(result).toMatchObject({ aborted: true, timedOut: false, signal: 'SIGTERM' });
});

test('a command that cannot start is an error, not a hang', async () => {
  const result = await run('true', { cwd: path.join(dir, 'missing') });
  expect(result.error).toMatch(/ENOENT/);
});

test('when the worker goes away, running commands finish, or are stopped at their own timeout', async () => {
  const own = createProcessRunner();
  const started: number[] = [];
  const io = { onOutput: () => undefined };
  const finishes = own.run(request(`sleep 0.5; echo done > ${dir}/finished`), io);
  const hangs = own.run(request('echo $$ > hang.pid; sleep 30', { timeoutMs: 1500 }), io);
  await until(() => fs.existsSync(path.join(dir, 'hang.pid')));
  started.push(Number(fs.readFileSync(path.join(dir, 'hang.pid'), 'utf8')));
  own.close();
  await Promise.all([finishes, hangs]);
  await until(() => fs.existsSync(path.join(dir, 'finished')));
  expect(isAlive(started[0])).toBe(true);
  await until(() => !isAlive(started[0]));
});

test('a command that kills the spawner fails alone; the next command gets a new spawner', async () => {
  const result = await run('kill -9 $PPID; sleep 1');
  expect(result.error).toMatch(/spawner exited/);
  expect((await run('echo again')).stdout).toBe('again\n');
});
