/**
 * The commands of docs/scripts.md's examples, run exactly as the document shows them (a shell, from
 * the clone's root, `durable-agent` on PATH) against the test run's Temporal server: each exits 0
 * and prints what its `# prints:` line says.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(240_000);

const sandbox = sandboxesCleanedAfterEach();
const ROOT = path.resolve(__dirname, '..', '..');

/** Each `durable-agent` command of the examples section, with the text it must print. */
function examples(): { command: string; prints: string }[] {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'scripts.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Examples'));
  return [...section.matchAll(/```sh\n([^\n]*durable-agent [^\n]*)\n# prints: ([^\n]+)\n```/g)].map((m) => ({
    command: m[1],
    prints: m[2],
  }));
}

test('docs/scripts.md shows an example for each script under docs/examples, with what it prints', () => {
  const scripts = fs.readdirSync(path.join(ROOT, 'docs', 'examples')).filter((f) => f.endsWith('.jsonl'));
  const used = examples().map((e) => /docs\/examples\/(\S+\.jsonl)/.exec(e.command)?.[1]);
  expect(used.sort()).toEqual(scripts.sort());
});

test.each(examples())('$command', async ({ command, prints }) => {
  const box = sandbox('doc-example', process.env[TEST_ENV_VARS.address]);
  const result = await promisify(execFile)('sh', ['-c', command], { cwd: ROOT, env: box.env() }).catch(
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
  expect({ code: 'code' in result ? result.code : 0, output: `${result.stdout}${result.stderr}` }).toEqual({
    code: 0,
    output: expect.stringContaining(prints),
  });
});
