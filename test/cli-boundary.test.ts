/**
 * The CLI and the editor front end (src/acp, the Agent Client Protocol) are front ends: they parse
 * their input, show, and call the client (src/client.ts). Building a prompt's input and following a
 * prompt's events live in the client, so every front end gets them the same. A line in src/cli or
 * src/acp that does either itself fails here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const FRONT_ENDS = ['cli', 'acp'].map((dir) => path.resolve(__dirname, '..', 'src', dir));

/** What only the client may do, and how each shows in source. */
const CLIENT_ONLY: { what: string; pattern: RegExp }[] = [
  {
    what: 'a value import of @temporalio/client (workflow handles, a connection)',
    pattern: /^import (?!type )[^;]*'@temporalio\/client'/m,
  },
  { what: 'a workflow handle', pattern: /\bgetHandle\(/ },
  {
    what: 'a query of the workflow (events, status)',
    pattern: /\b(eventsQuery|statusQuery|sessionStatusQuery)\b|\.query\(/,
  },
  { what: 'a read of workflow history', pattern: /\b(getWorkflowExecutionHistory|fetchHistory)\b/ },
  { what: 'the callback follower (the CLI prints what followShown yields)', pattern: /\bfollowEvents\b/ },
  { what: 'a value import of the workflow messages', pattern: /^import (?!type )[^;]*'\.\.\/workflows\/api'/m },
  {
    what: "building a prompt's input (the client's buildPromptInput and sessionSettings do it)",
    pattern: /\b(promptInput|promptSettings|loadWorkspaceConfig|loadSettingsDefaults|hostIsLocal)\(/,
  },
  { what: 'a PromptInput written by hand', pattern: /:\s*PromptInput\s*=|as PromptInput\b/ },
];

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
}

test.each(CLIENT_ONLY)('no file in src/cli or src/acp has $what', ({ pattern }) => {
  const offending = FRONT_ENDS.flatMap(sources).filter((file) => pattern.test(fs.readFileSync(file, 'utf8')));
  expect(offending.map((f) => path.relative(path.resolve(__dirname, '..', 'src'), f))).toEqual([]);
});

/**
 * No front end imports another: what both need (the runtime's set-up, the chat's commands, the client)
 * lives below them, in src/runtime and src/client, which import no front end either. The program's
 * command table (src/cli/main.ts) still starts the editor front end: that is the CLI's one way into it.
 */
const FRONT_END_IMPORTS: { dir: string; banned: RegExp }[] = [
  { dir: 'acp', banned: /^\.\.\/cli(\/|$)/ },
  { dir: 'runtime', banned: /^\.\.\/(cli|acp)(\/|$)/ },
  { dir: 'client', banned: /^\.\.\/(cli|acp|runtime)(\/|$)/ },
];

/** The modules a source names: static imports, export-from and dynamic imports. */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((m) => m[1]);
}

test.each(FRONT_END_IMPORTS)('no file in src/$dir imports a front end above it', ({ dir, banned }) => {
  const offending = sources(path.resolve(__dirname, '..', 'src', dir)).flatMap((file) =>
    specifiers(fs.readFileSync(file, 'utf8'))
      .filter((spec) => banned.test(spec))
      .map((spec) => `${path.relative(path.resolve(__dirname, '..', 'src'), file)}: ${spec}`),
  );
  expect(offending).toEqual([]);
});

test('the rules see what they forbid', () => {
  const samples = [
    "import { Client } from '@temporalio/client';",
    'client.workflow.getHandle(id)',
    'await handle.query(eventsQuery, 0)',
    'await client.workflowService.getWorkflowExecutionHistory({})',
    'await followEvents(client, id, print)',
    "import { statusQuery } from '../workflows/api';",
    'const input = promptInput(options);',
    "const input: PromptInput = { prompt: 'x' };",
  ];
  for (const [i, rule] of CLIENT_ONLY.entries()) expect(rule.pattern.test(samples[i])).toBe(true);
  expect(CLIENT_ONLY[0].pattern.test("import type { Client } from '@temporalio/client';")).toBe(false);
  const acp = FRONT_END_IMPORTS[0].banned;
  expect(
    ["import { openRuntime } from '../cli/runtime';", "const m = await import('../cli');"].map(specifiers),
  ).toEqual([['../cli/runtime'], ['../cli']]);
  expect(['../cli/runtime', '../cli'].every((spec) => acp.test(spec))).toBe(true);
  expect(acp.test('../client')).toBe(false);
});
