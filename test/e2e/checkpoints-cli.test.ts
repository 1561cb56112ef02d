/**
 * Checkpoints through the binary: stream-json and `status --json` name each turn's checkpoint; the settings key
 * `general.checkpointing.enabled: false` turns them off, and a bad value there stops the command with a clear
 * error. Run `npm run build` first: the binary runs `dist/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const address = () => process.env[TEST_ENV_VARS.address] as string;

const SCRIPT = [
  functionCallResponse({ name: 'write_file', args: { file_path: 'a.txt', content: 'one\n' } }),
  textResponse('Written.'),
];

function lines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function writeSettings(home: string, settings: unknown): void {
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify(settings));
}

test('stream-json and status --json name each turn checkpoint', async () => {
  const box = sandbox('checkpoints-cli', address());
  const run = await box.run(['-p', 'write it', '-y', '-o', 'stream-json', '--fake-responses', box.script(SCRIPT)]);
  expectExit(run, 0);
  const out = lines(run.stdout);
  const named = out.filter((l) => l.type === 'checkpoint');
  expect(named).toEqual([
    { timestamp: expect.any(String), type: 'checkpoint', turn: 1, checkpoint: expect.any(String) },
  ]);
  const ref = named[0].checkpoint as string;
  expect(ref).toMatch(/^sha256:[0-9a-f]{64}$/);
  // The checkpoint line comes after the call's result: it is the workspace as the turn left it.
  const order = out.map((l) => l.type);
  expect(order.indexOf('checkpoint')).toBeGreaterThan(order.indexOf('tool_result'));

  const status = await box.run(['status', out[0].session_id as string, '--json']);
  expectExit(status, 0);
  expect(JSON.parse(status.stdout).checkpoints).toEqual([
    { turn: 1, checkpoint: ref },
    { turn: 2, checkpoint: ref },
  ]);
});

test('general.checkpointing.enabled false in the settings takes none', async () => {
  const box = sandbox('checkpoints-off', address());
  writeSettings(box.home, { general: { checkpointing: { enabled: false } } });
  const run = await box.run(['-p', 'write it', '-y', '-o', 'stream-json', '--fake-responses', box.script(SCRIPT)]);
  expectExit(run, 0);
  expect(run.stderr).not.toMatch(/checkpointing/);
  const out = lines(run.stdout);
  expect(out.filter((l) => l.type === 'checkpoint')).toEqual([]);
  const status = await box.run(['status', out[0].session_id as string, '--json']);
  expect(JSON.parse(status.stdout).checkpoints).toEqual([{ turn: 1 }, { turn: 2 }]);
});

test('a bad general.checkpointing value stops the command with a clear error', async () => {
  const box = sandbox('checkpoints-bad', address());
  writeSettings(box.home, { general: { checkpointing: { enabled: 'no', maxFileBytes: -1 } } });
  const run = await box.run(['-p', 'write it', '--fake-responses', box.script(SCRIPT)]);
  expectExit(run, 52);
  expect(run.stderr).toMatch(/general\.checkpointing\.enabled/);
  expect(run.stderr).toMatch(/general\.checkpointing\.maxFileBytes/);
});
