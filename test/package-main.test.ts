/**
 * The package's `main` is the agent client (src/client) as built by `npm run build`: a program that
 * installs durable-agent gets the functions that start prompts and send them messages, with types.
 * Run `npm run build` first, as for the CLI tests: this requires `dist/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; types: string };

test('main and types name files that the build wrote', () => {
  expect(fs.existsSync(path.join(root, pkg.main))).toBe(true);
  expect(fs.existsSync(path.join(root, pkg.types))).toBe(true);
});

test('main exports the client API', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const api = require(path.join(root, pkg.main)) as Record<string, unknown>;
  const functions = ['connectClient', 'startPrompt', 'sendToSession', 'followEvents', 'promptStatus', 'cancelPrompt'];
  for (const name of functions) expect(typeof api[name]).toBe('function');
  expect(api.DEFAULT_TASK_QUEUE).toBe('durable-agent');
  expect(api.WorkflowNotFoundError).toBeDefined();
});
