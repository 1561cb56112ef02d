/**
 * `durable-agent replay-check` through the binary (run `npm run build` first: it runs `dist/`), against a
 * dev server of its own so that it replays only the histories this file records.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { startDevServer, type DevServer } from '../../src/server/dev-server';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(120_000);

const sandbox = sandboxesCleanedAfterEach();
let server: DevServer | undefined;
afterAll(async () => server?.stop());

test('replay-check passes the histories a run recorded, lists one a changed bundle would break, and says which patches open runs need', async () => {
  const tmp = process.env[TEST_ENV_VARS.tmpDir]!;
  const dir = fs.mkdtempSync(path.join(tmp, 'replay-check-'));
  server = await startDevServer({
    cliPath: process.env[TEST_ENV_VARS.cliPath]!,
    dbFile: path.join(dir, 'temporal.db'),
    headless: true,
  });
  const box = sandbox('replay-check', server.address);
  const script = box.script([
    functionCallResponse({ name: 'run_shell_command', args: { command: 'echo hi' } }),
    textResponse('Said hi.'),
  ]);
  const ran = await box.run(['run', 'say hi', '--fake-responses', script, '--approval-mode', 'yolo'], {
    timeoutMs: 90_000,
  });
  expectExit(ran, 0);

  const passed = await box.run(['replay-check', '--since', '1h']);
  expectExit(passed, 0);
  expect(passed.stdout).toMatch(/replayed 1 histories since .*; 0 would break/);
  // With no open run, no patch is needed by one.
  expect(passed.stdout).toContain('replay patches, against the 0 open prompt and sub-agent run(s):');
  expect(passed.stdout).toMatch(/^ {2}status-at-end \(since 2026-11-27\): can go; no open run needs it$/m);

  // The next build renamed an activity the recorded prompt scheduled: replaying it issues another command.
  const bundle = fs.readFileSync(path.resolve(__dirname, '..', '..', 'dist', 'workflow-bundle.js'), 'utf8');
  expect(bundle).toContain('acts.runTool(');
  const variant = path.join(dir, 'variant-bundle.js');
  fs.writeFileSync(variant, bundle.split('acts.runTool(').join('acts.runToolRenamed('));
  const broke = await box.run(['replay-check', '--since', '1h', '--workflow-bundle', variant]);
  expectExit(broke, 1);
  expect(broke.stdout).toMatch(/^BREAKS \S+ \(run [0-9a-f-]+\): DeterminismViolationError: .*Nondeterminism/m);
  expect(broke.stdout).toMatch(/1 would break/);

  // A prompt held at an approval is open: it recorded the patches it passed, not the one it ends with.
  const held = box.start(['run', 'say hi again', '--fake-responses', script]);
  await held.waitFor('stderr', /^ {2}approve: /m);
  const advised = await box.run(['replay-check', '--since', '1h']);
  expectExit(advised, 0);
  expect(advised.stdout).toContain('against the 1 open prompt and sub-agent run(s)');
  expect(advised.stdout).toMatch(
    /^ {2}project-memory \(since \S+\): may become deprecatePatch; every open run took its new branch$/m,
  );
  expect(advised.stdout).toMatch(/^ {2}status-at-end \(since \S+\): keep; 1 open run\(s\) lack its marker$/m);
  held.kill();

  const bad = await box.run(['replay-check', '--since', 'forever']);
  expectExit(bad, 42);
  expect(bad.stderr).toContain('--since must be a positive whole number with a unit');
});
