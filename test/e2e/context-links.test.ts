import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { textResponse } from '../../src/fake-gemini';
import { closeTestEnv } from '../helpers/temporal-env';
import { createHarness, type Harness } from '../helpers/agent-harness';

/**
 * Context files a hostile workspace can shape: links that lead out of the project or the home, and
 * a `.gitignore` pattern that a backtracking matcher needs hours for. Real dev server, real files,
 * the real SDK against the fake Gemini server.
 */
let h: Harness;
let home: string;
let outside: string;
beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'context-links-home-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'context-links-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.md'), 'secret text');
  h = await createHarness('context-links', { home });
});
afterAll(async () => {
  await h?.close();
  await closeTestEnv();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

function system(n: number): string {
  const body = h.fake.requests[n].body as { systemInstruction?: { parts?: { text?: string }[] } };
  return (body.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('');
}

function warnings(events: { type: string }[]): string {
  return events
    .filter((e) => e.type === 'warning')
    .map((e) => JSON.stringify(e))
    .join('\n');
}

test('a context file that links out of the project or the home is not read, at any depth', async () => {
  const workspace = path.join(
    h.workspace({ '.git/HEAD': 'ref: refs/heads/main\n', 'docs/rules.md': 'linked rules' }),
    'pkg',
  );
  fs.mkdirSync(path.join(workspace, 'deep', 'er'), { recursive: true });
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(workspace, 'GEMINI.md'));
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(workspace, 'deep', 'er', 'GEMINI.md'));
  fs.symlinkSync(path.join(workspace, '..', 'docs', 'rules.md'), path.join(workspace, 'deep', 'GEMINI.md'));
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(home, 'GEMINI.md'));
  const run = await h.run([textResponse('ok')], { workspace });
  expect(run.result?.response).toBe('ok');
  expect(system(0)).not.toContain('secret text');
  // A link that stays inside the project is read as before.
  expect(system(0)).toContain('--- Context from: ../docs/rules.md ---\nlinked rules\n');
  const said = warnings(run.events);
  for (const link of [path.join(workspace, 'GEMINI.md'), path.join(workspace, 'deep', 'er', 'GEMINI.md')]) {
    expect(said).toContain(`${link}: not read: it links to`);
  }
  expect(said).toContain(`${path.join(fs.realpathSync(home), 'GEMINI.md')}: not read: it links to`);
  fs.rmSync(path.join(home, 'GEMINI.md'));
});

test('a .gitignore pattern that makes a backtracking matcher explode does not hold up the prompt', async () => {
  const bomb = `${'*a'.repeat(12)}*c`;
  const name = 'a'.repeat(40);
  const workspace = h.workspace({ '.gitignore': `${bomb}\n`, [`${name}/GEMINI.md`]: 'deep rules' });
  const run = await h.run([textResponse('ok')], { workspace });
  expect(run.result?.response).toBe('ok');
  expect(system(0)).toContain(`--- Context from: ${name}/GEMINI.md ---\ndeep rules\n`);
}, 60_000);
