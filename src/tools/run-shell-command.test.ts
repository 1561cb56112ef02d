import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createExec } from '../activities/exec';
import {
  callTool,
  errorOf,
  makeOutsideDir,
  makeWorkspace,
  outputOf,
  removeWorkspaces,
} from '../../test/helpers/tool-harness';
import { UNTRUSTED_CLOSE, untrustedOpen } from '../core/untrusted';

/** The command's report without the untrusted-data fence, which every shell result must carry. */
function shellOutput(result: Parameters<typeof outputOf>[0]): string {
  const output = outputOf(result);
  const open = `${untrustedOpen('shell')}\n`;
  expect(output.startsWith(open)).toBe(true);
  expect(output.endsWith(`\n${UNTRUSTED_CLOSE}`)).toBe(true);
  return output.slice(open.length, -UNTRUSTED_CLOSE.length - 1);
}

afterAll(removeWorkspaces);

/** A killed process whose parent is gone stays a zombie until init reaps it: that counts as dead. */
const isAlive = async (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat.split(') ')[1]?.[0] !== 'Z';
};

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('run_shell_command', () => {
  it('returns the combined output', async () => {
    const { deps } = await makeWorkspace();
    const result = await callTool(
      'run_shell_command',
      { command: 'echo out; echo err >&2', description: 'print' },
      deps,
    );
    expect(shellOutput(result)).toBe('Output: out\nerr');
  });

  it('says (empty) when there is no output', async () => {
    const { deps } = await makeWorkspace();
    expect(shellOutput(await callTool('run_shell_command', { command: 'true' }, deps))).toBe('Output: (empty)');
  });

  it('reports a non-zero exit code as a result, with the output', async () => {
    const { deps } = await makeWorkspace();
    const result = await callTool('run_shell_command', { command: 'echo failing; exit 3' }, deps);
    expect(shellOutput(result)).toBe('Output: failing\nExit Code: 3');
  });

  it('reports the signal that ended the command', async () => {
    const { deps } = await makeWorkspace();
    const output = shellOutput(await callTool('run_shell_command', { command: 'kill -TERM $$' }, deps));
    expect(output).toBe('Output: (empty)\nSignal: SIGTERM');
  });

  it('runs in the workspace root, or in dir_path', async () => {
    const { root, deps } = await makeWorkspace({ 'sub/x.txt': '' });
    expect(shellOutput(await callTool('run_shell_command', { command: 'pwd -P' }, deps))).toBe(`Output: ${root}`);
    const inSub = shellOutput(await callTool('run_shell_command', { command: 'pwd -P; ls', dir_path: 'sub' }, deps));
    expect(inSub).toBe(`Output: ${path.join(root, 'sub')}\nx.txt`);
  });

  it('refuses a dir_path outside the workspace or that is not a directory', async () => {
    const { root, deps } = await makeWorkspace({ 'f.txt': '' });
    const outside = await makeOutsideDir();
    await fs.symlink(outside, path.join(root, 'out'));
    for (const dir_path of ['..', '/tmp', 'out']) {
      expect(errorOf(await callTool('run_shell_command', { command: 'touch pwned', dir_path }, deps)).kind).toBe(
        'path_outside_workspace',
      );
    }
    expect(await fs.readdir(outside)).toEqual([]);
    expect(errorOf(await callTool('run_shell_command', { command: 'ls', dir_path: 'f.txt' }, deps)).kind).toBe(
      'not_a_directory',
    );
  });

  it('refuses bad arguments', async () => {
    const { deps } = await makeWorkspace();
    expect(errorOf(await callTool('run_shell_command', {}, deps)).kind).toBe('invalid_tool_params');
    expect(errorOf(await callTool('run_shell_command', { command: '   ' }, deps)).kind).toBe('invalid_tool_params');
    expect(errorOf(await callTool('run_shell_command', { command: 42 }, deps)).kind).toBe('invalid_tool_params');
  });

  it('kills the whole process group on timeout and returns the output so far', async () => {
    const { root, deps } = await makeWorkspace({}, { shellTimeoutMs: 700 });
    const command = 'sleep 30 & echo $! > bg.pid; echo started; sleep 30';
    const started = Date.now();
    const error = errorOf(await callTool('run_shell_command', { command }, deps));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.kind).toBe('shell_timeout');
    expect(error.message).toContain('killed after 0.7 seconds');
    expect(error.message).toContain('Output: started');
    const backgroundPid = Number(await fs.readFile(path.join(root, 'bg.pid'), 'utf8'));
    expect(await waitFor(async () => !(await isAlive(backgroundPid)), 1500)).toBe(true);
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const { deps } = await makeWorkspace({}, { shellTimeoutMs: 300 });
    const error = errorOf(
      await callTool(
        'run_shell_command',
        { command: "trap '' TERM; echo stubborn; while true; do sleep 0.1; done" },
        deps,
      ),
    );
    expect(error.kind).toBe('shell_timeout');
    expect(error.message).toContain('stubborn');
    expect(error.message).toContain('Signal: SIGKILL');
  }, 15000);

  it('is cancelled, process group and all, when the signal aborts', async () => {
    const controller = new AbortController();
    const { deps } = await makeWorkspace({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const error = errorOf(await callTool('run_shell_command', { command: 'echo begun; sleep 30' }, deps));
    expect(error.kind).toBe('cancelled');
    expect(error.message).toContain('Output: begun');
  });

  it('keeps the start and end of output over 40,000 characters, within the limit', async () => {
    const { deps } = await makeWorkspace();
    const command = "printf 'FIRST'; head -c 100000 /dev/zero | tr '\\0' 'x'; printf 'LAST'";
    const output = shellOutput(await callTool('run_shell_command', { command }, deps));
    expect(output.length).toBeLessThanOrEqual(40_000);
    expect(output.startsWith('Output: FIRST')).toBe(true);
    expect(output.endsWith('xLAST')).toBe(true);
    expect(output).toMatch(/\[\.\.\. [\d,]+ of 100,009 characters were cut from the middle/);
    expect(output.length).toBeGreaterThan(39_000);
  });

  it('keeps the model from reading API keys through the environment', async () => {
    process.env.DA_TEST_API_KEY = 'should-not-leak';
    try {
      const result = await createExec()({
        command: 'echo "[$DA_TEST_API_KEY]"; echo "[$HOME]"',
        cwd: '/',
        timeoutMs: 5000,
        maxOutputChars: 1000,
      });
      expect(result.output).toContain('[]');
      expect(result.output).not.toContain('should-not-leak');
      expect(result.output).toContain(`[${process.env.HOME}]`);
    } finally {
      delete process.env.DA_TEST_API_KEY;
    }
  });

  it('returns when the command exits even if a background process keeps its output open', async () => {
    const { root, deps } = await makeWorkspace();
    const started = Date.now();
    const output = shellOutput(
      await callTool('run_shell_command', { command: 'sleep 5 & echo $! > bg.pid; echo done' }, deps),
    );
    expect(Date.now() - started).toBeLessThan(3000);
    expect(output).toBe('Output: done');
    process.kill(Number(await fs.readFile(path.join(root, 'bg.pid'), 'utf8')), 'SIGKILL');
  });
});

describe('createExec output cap', () => {
  const exec = createExec();
  const run = (command: string, maxOutputChars: number) => exec({ command, cwd: '/', timeoutMs: 5000, maxOutputChars });

  it('returns output within the cap whole, however it arrives', async () => {
    const result = await run('for i in $(seq 1 200); do printf "%03d" $i; sleep 0.001; done', 600);
    expect(result.output).toBe(Array.from({ length: 200 }, (_, i) => String(i + 1).padStart(3, '0')).join(''));
    expect(result).toMatchObject({ exitCode: 0, signal: null, timedOut: false, aborted: false });
    expect(result.pid).toEqual(expect.any(Number));
  });

  it('cuts the middle of longer output, keeping its end', async () => {
    const result = await run('seq 1 20000', 2000);
    expect(result.output.length).toBeLessThanOrEqual(2000);
    expect(result.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.output.endsWith('19999\n20000\n')).toBe(true);
    expect(result.output).toContain('characters were cut from the middle');
  });
});
