import { expectExit, freePortWithUi, portIsFree, processesOf, sandboxesCleanedAfterEach } from '../helpers/cli';
import { textResponse } from '../../src/fake-gemini';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();

describe('the embedded server starts only at an address that is ours', () => {
  test("a silent TEMPORAL_ADDRESS not recorded as this home's: fail at once, start nothing there", async () => {
    const port = await freePortWithUi();
    const address = `127.0.0.1:${port}`;
    const box = sandbox('team-address', address, false);
    const script = box.script([textResponse('never asked')]);
    const commands = [
      ['status', 'prompt-0'],
      ['approve', 'prompt-0'],
      ['run', 'hello', '--fake-responses', script, '-w', box.workspace],
      ['run', 'hello', '--detach', '--fake-responses', script, '-w', box.workspace],
    ];
    for (const args of commands) {
      const result = await box.run(args);
      expectExit(result, 1);
      expect(result.stderr).toContain(`cannot reach Temporal at ${address}`);
      expect(result.stderr).not.toMatch(/starting the embedded/);
      expect(await portIsFree(port)).toBe(true);
      expect(processesOf(box.home)).toEqual([]);
    }
  });

  test('at its own address a command starts the embedded server and says so on stderr', async () => {
    const port = await freePortWithUi();
    const address = `127.0.0.1:${port}`;
    const box = sandbox('own-address', address);
    const result = await box.run(['status', 'prompt-0']);
    expectExit(result, 42);
    expect(result.stderr).toContain(`durable-agent: starting the embedded Temporal dev server at ${address}\n`);
    expect(await portIsFree(port)).toBe(true);
  });
});
