import * as fs from 'node:fs';
import {
  eventually,
  expectExit,
  freePortWithUi,
  portIsFree,
  processesOf,
  sandboxesCleanedAfterEach,
} from '../helpers/cli';
import { textResponse } from '../../src/fake-gemini';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();

/** The command line of a live process, or undefined once it is gone (Linux /proc). */
function commandOf(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

describe('the embedded server of a run', () => {
  test('goes with the run when the run is killed with kill -9: no orphan holds the port or the database', async () => {
    const port = await freePortWithUi();
    const box = sandbox('orphan', `127.0.0.1:${port}`);
    const script = box.script([textResponse('late answer', { delayMs: 120_000 })]);
    const run = box.start(['run', 'hello', '--fake-responses', script, '-w', box.workspace]);
    await run.waitFor('stderr', /prompt \S+ started/, 120_000);
    const server = processesOf(box.home).find((pid) => /server start-dev/.test(commandOf(pid) ?? ''));
    expect(server).toBeDefined();
    // Only the run's own Node process, as `kill -9 PID` does: not its process group.
    process.kill(run.pid, 'SIGKILL');
    await run.done;
    await eventually(() => commandOf(server!) === undefined, 30_000, `dev server ${server} to stop after its run`);
    expect(await portIsFree(port)).toBe(true);
  });

  test('a run ends after its answer without awaiting the server; the server goes, and the next run waits it out', async () => {
    const port = await freePortWithUi();
    const box = sandbox('left', `127.0.0.1:${port}`);
    const answered = async (answer: string) => {
      const run = await box.run([
        'run',
        'hi',
        '--fake-responses',
        box.script([textResponse(answer)]),
        '-w',
        box.workspace,
      ]);
      expectExit(run, 0);
      expect(run.stdout).toContain(answer);
    };
    await answered('first answer');
    const left = processesOf(box.home).filter((pid) => /server start-dev/.test(commandOf(pid) ?? ''));
    // At once, while the first run's server may still be shutting down: it must not be used, nor share the database.
    await answered('second answer');
    for (const pid of left) expect(commandOf(pid)).toBeUndefined();
    await eventually(() => processesOf(box.home).length === 0, 30_000, 'no process of the home left after the runs');
    expect(await portIsFree(port)).toBe(true);
  });

  test('a run refused for its input at a silent own address leaves no server behind', async () => {
    const port = await freePortWithUi();
    const box = sandbox('refused', `127.0.0.1:${port}`);
    expectExit(
      await box.run(['run', 'hi', '--fake-responses', box.script([textResponse('hi')]), '-w', box.workspace]),
      0,
    );
    await eventually(() => processesOf(box.home).length === 0, 30_000, 'the first run to leave no process');
    // With the home's database there, a cold `run` starts its server before its input is checked.
    const run = await box.run(['run', 'hello', '-m', ' ', '--fake-responses', box.script([]), '-w', box.workspace]);
    expectExit(run, 42);
    await eventually(() => processesOf(box.home).length === 0, 30_000, 'no process of the home left after the run');
    expect(await portIsFree(port)).toBe(true);
  });
});
