import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_AGENTS } from '../core/agents/builtins';
import { LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL } from '../core/mcp';
import { defaultPolicy, EDIT_TOOLS, READ_ONLY_TOOLS } from '../core/policy/defaults';
import { toolNames } from './index';

/** A rule naming a tool no one declares never matches: it hides a typo or a tool that was never built. */
describe('the tool names of the built-in policy', () => {
  const named = (names: string | readonly string[] | undefined) =>
    (typeof names === 'string' ? [names] : (names ?? [])).filter((name) => name !== '*');

  it('are all declared tools', () => {
    const listed = [
      ...READ_ONLY_TOOLS,
      ...EDIT_TOOLS,
      ...defaultPolicy('plans').flatMap((rule) => named(rule.toolName)),
    ];
    expect([...new Set(listed)].filter((name) => !toolNames.includes(name))).toEqual([]);
  });

  it('of the built-in agents are all declared tools', () => {
    const listed = BUILTIN_AGENTS.flatMap((agent) => agent.tools ?? []);
    expect(listed.filter((name) => !toolNames.includes(name))).toEqual([]);
  });
});

const ROOT = path.join(__dirname, '..', '..');
/** Tools that exist without a file in src/tools: the MCP resource tools, offered when a server has resources. */
const OTHER_TOOLS = [LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const quoted = (text: string) => [...text.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]);

/**
 * String literals written where a tool name goes: rule and agent lists (`toolName: …`, `tools: […]`),
 * registry and prompt look-ups (`findTool('…')`, `offers(ctx, '…')`, `named([…])`), name constants
 * and lists (`…_TOOL = '…'`, `…_TOOLS = […]`), and comparisons of a name with a snake_case
 * literal (`name === 'write_todos'`).
 */
export function namedTools(source: string): string[] {
  const lists = [...source.matchAll(/\btoolName\s*:\s*('[^']*'|\[[^\]]*\])|\btools\s*:\s*(\[[^\]]*\])/g)].flatMap((m) =>
    quoted(m[1] ?? m[2]),
  );
  const calls = [...source.matchAll(/\b(?:findTool|offers|named)\(([^)]*)\)/g)].flatMap((m) => quoted(m[1]));
  const constants = [...source.matchAll(/_TOOL\s*=\s*'([^']+)'/g)].map((m) => m[1]);
  const sets = [...source.matchAll(/_(?:TOOLS|ONLY)\b[^=\n]*=\s*(?:new Set\()?(\[[^\]]*\])/g)].flatMap((m) =>
    quoted(m[1]),
  );
  const compared = [...source.matchAll(/\b[nN]ame\s*[!=]==\s*'([a-z]+(?:_[a-z]+)+)'/g)].map((m) => m[1]);
  return [...lists, ...calls, ...constants, ...sets, ...compared.filter((name) => name !== 'node_modules')];
}

/**
 * `toolName` of the TOML policy examples in the README and docs, and the hook matchers written as
 * lowercase tool names (`"matcher": "write_file|replace"`; other matchers are event-specific).
 */
function docToolNames(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```toml\n([\s\S]*?)```/g)].map((m) => m[1]);
  const toml = blocks.flatMap((block) =>
    [...block.matchAll(/^\s*toolName\s*=\s*(.+)$/gm)].flatMap((m) => quoted(m[1])),
  );
  const matchers = [...markdown.matchAll(/"matcher":\s*"([a-z_|]+)"/g)].flatMap((m) => m[1].split('|'));
  return [...toml, ...matchers];
}

const exists = (name: string) =>
  toolNames.includes(name) || OTHER_TOOLS.includes(name) || name.includes('*') || name.startsWith('mcp_');

describe('every place that names a tool', () => {
  it('finds names where they are written', () => {
    const source =
      `rules: [{ toolName: ['glob', "read_many_files"] }]; if (call.name === 'write_todo') findTool('grep');` +
      `const MAIN_ONLY = ['ask_users'];`;
    expect(namedTools(source)).toEqual(['glob', 'read_many_files', 'grep', 'ask_users', 'write_todo']);
  });

  it('in the source names only tools that exist', () => {
    const unknown = sourceFiles(path.join(ROOT, 'src')).flatMap((file) =>
      namedTools(fs.readFileSync(file, 'utf8'))
        .filter((name) => !exists(name))
        .map((name) => `${path.relative(ROOT, file)}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('in the policy and hook examples of the docs names only tools that exist', () => {
    const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    const files = ['README.md', ...docs.map((name) => path.join('docs', name))];
    const unknown = files.flatMap((file) =>
      docToolNames(fs.readFileSync(path.join(ROOT, file), 'utf8'))
        .filter((name) => !exists(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});
