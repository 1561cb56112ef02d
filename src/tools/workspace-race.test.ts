/**
 * Invariant 6 under a race: a child process swaps a workspace directory with a symlink to an outside
 * folder in a tight loop while the tools read and write through it. Whatever the timing, no call may
 * return the outside file or write there; a call caught mid-swap may fail, with an error result.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { callTool, makeOutsideDir, makeWorkspace, removeWorkspaces } from '../../test/helpers/tool-harness';
import type { ToolDeps, ToolResult } from './types';

afterAll(removeWorkspaces);

const CALLS = 600;

/** Swaps `dir` with a link to `outside` and back until killed, bounded in iterations and time. */
const SWAPPER = `
const fs = require('node:fs');
const [dir, outside] = process.argv.slice(1);
const real = dir + '.real';
const stopAt = Date.now() + 60000;
// Spins for a random time up to \${us} microseconds, so every gap between a check and a use is hit.
const hold = (us) => { const until = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * us * 1000)); while \
(process.hrtime.bigint() < until); };
for (let i = 0; i < 5000000 && Date.now() < stopAt; i += 1) {
  try {
    fs.renameSync(dir, real);
    fs.symlinkSync(outside, dir);
    hold(50);
  } catch { /* a write_file created the directory while it was away: removed below */ }
  try {
    if (!fs.existsSync(real)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(real, dir);
    hold(1000);
  } catch { /* the same race again: the next round repairs it */ }
}
`;

function startSwapper(dir: string, outside: string): ChildProcess {
  return spawn(process.execPath, ['-e', SWAPPER, dir, outside], { stdio: 'ignore' });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/** Only the outside folder holds this text and this file name. */
const leaked = (result: ToolResult) => result.ok && /SECRET-OUTSIDE|leak-only/.test(result.output);

/** A call caught mid-swap may also throw (the activity would retry it): that is no leak. */
async function call(name: string, args: unknown, deps: ToolDeps): Promise<ToolResult> {
  try {
    return await callTool(name, args, deps);
  } catch (error) {
    return { ok: false, error: { kind: 'execution_failed', message: String(error) } };
  }
}

describe('tools while a directory is swapped with a symlink to outside the workspace', () => {
  it('never read, list, search or write outside', async () => {
    const { root, deps } = await makeWorkspace({ 'd/secret.txt': 'inside\n', 'd/inside-only.txt': 'x\n' });
    const outside = await makeOutsideDir({ 'secret.txt': 'SECRET-OUTSIDE\n', 'leak-only.txt': 'x\n' });
    const swapper = startSwapper(path.join(root, 'd'), outside);
    const leaks: Record<string, number> = { read_file: 0, list_directory: 0, grep_search: 0, glob: 0 };
    let ok = 0;
    try {
      for (let i = 0; i < CALLS; i += 1) {
        const read = await call('read_file', { file_path: 'd/secret.txt' }, deps);
        if (leaked(read)) leaks.read_file += 1;
        if (read.ok) ok += 1;
        await call('write_file', { file_path: `d/w${i}.txt`, content: 'written' }, deps);
        if (i % 20 !== 0) continue;
        if (leaked(await call('list_directory', { dir_path: 'd' }, deps))) leaks.list_directory += 1;
        if (leaked(await call('grep_search', { pattern: 'SECRET.OUT', dir_path: 'd' }, deps))) leaks.grep_search += 1;
        if (leaked(await call('glob', { pattern: '**/*-only.txt', dir_path: 'd' }, deps))) leaks.glob += 1;
      }
    } finally {
      await stop(swapper);
    }
    await fs.rm(path.join(root, 'd'), { force: true }).catch(() => undefined);
    expect({ leaks, written: (await fs.readdir(outside)).filter((name) => name.startsWith('w')) }).toEqual({
      leaks: { read_file: 0, list_directory: 0, grep_search: 0, glob: 0 },
      written: [],
    });
    // The race was real: some reads went through (and, mid-swap, some were refused).
    expect(ok).toBeGreaterThan(0);
  });
});
