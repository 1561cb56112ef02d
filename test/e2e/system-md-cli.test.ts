/**
 * `GEMINI_SYSTEM_MD` and `GEMINI_WRITE_SYSTEM_MD` through the binary, read as Gemini CLI reads them.
 * Run `npm run build` first: the binary runs `dist/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { textResponse } from '../../src/fake-gemini';
import { expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const address = () => process.env[TEST_ENV_VARS.address];

test('GEMINI_SYSTEM_MD naming a missing file stops the CLI before anything starts (exit 52)', async () => {
  const box = sandbox('system-md-missing', address());
  const script = box.script([textResponse('never')]);
  const missing = path.join(box.dir, 'nope.md');
  const byPath = await box.run(['-p', 'x', '--fake-responses', script], { env: { GEMINI_SYSTEM_MD: missing } });
  expectExit(byPath, 52);
  expect(byPath.stderr).toContain(`GEMINI_SYSTEM_MD: missing system prompt file '${missing}'`);
  const bySwitch = await box.run(['-p', 'x', '--fake-responses', script], { env: { GEMINI_SYSTEM_MD: 'true' } });
  expectExit(bySwitch, 52);
  expect(bySwitch.stderr).toContain(path.join(box.dir, '.gemini', 'system.md'));
});

test('GEMINI_SYSTEM_MD=1 uses .gemini/system.md; GEMINI_WRITE_SYSTEM_MD=1 writes the prompt there', async () => {
  const box = sandbox('system-md', address());
  const script = () => box.script([textResponse('ok')]);
  const file = path.join(box.dir, '.gemini', 'system.md');
  const written = await box.run(['-p', 'x', '--fake-responses', script()], { env: { GEMINI_WRITE_SYSTEM_MD: '1' } });
  expectExit(written, 0);
  const built = fs.readFileSync(file, 'utf8');
  expect(built).toMatch(/^You are durable-agent/);
  expect(built).toMatch(/# Unattended run/);
  fs.writeFileSync(file, 'Answer in one word.');
  const out = path.join(box.dir, 'used.md');
  const replaced = await box.run(['-p', 'x', '--fake-responses', script()], {
    env: { GEMINI_SYSTEM_MD: 'TRUE', GEMINI_WRITE_SYSTEM_MD: out },
  });
  expectExit(replaced, 0);
  expect(fs.readFileSync(out, 'utf8')).toBe('Answer in one word.');
});
