/**
 * What a newcomer meets before any prompt runs: the version, the top-level help, and a mistyped
 * option. Nothing here reaches Temporal, so no server is started.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';

const sandbox = sandboxesCleanedAfterEach();
const manifest = path.resolve(__dirname, '..', '..', 'package.json');
const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };

test('-v and --version print the version; the help lists them and says leading options mean run', async () => {
  const box = sandbox('help');
  for (const flag of ['-v', '--version']) {
    const result = await box.run([flag]);
    expectExit(result, 0);
    expect(result.stdout).toBe(`${version}\n`);
  }
  const help = await box.run(['--help']);
  expectExit(help, 0);
  expect(help.stdout).toMatch(/-v, --version/);
  expect(help.stdout).toMatch(/Options before any command mean `run`/);
  expect(help.stdout).toMatch(/no arguments at all, durable-agent opens a chat/);
});

test('an unknown option prints one line and the hint to --help, not the whole help', async () => {
  const box = sandbox('unknown-option');
  const result = await box.run(['status', 'some-id', '--no-such-option']);
  expectExit(result, 42);
  expect(result.stderr).toBe("error: unknown option '--no-such-option'\n(add --help for the usage)\n");
  expect(result.stdout).toBe('');
});
