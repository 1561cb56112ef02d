import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultOutputSchema } from '../core/agents/definition';
import { AgentFileError, loadAgentFiles, parseAgentFile } from './agents';

let tmp: string;
let userDir: string;
let workspaceDir: string;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-load-'));
  userDir = path.join(tmp, 'home', 'agents');
  workspaceDir = path.join(tmp, 'workspace', '.durable-agent', 'agents');
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

async function write(dir: string, name: string, text: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await fs.writeFile(file, text);
  return file;
}

const agentFile = (name: string, description: string, body = 'You review code.') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

const FULL = `---
name: security_reviewer
kind: local
display_name: Security Reviewer
description: |
  Reviews a change for security problems:
  injection, secrets, unsafe file access.
tools:
  - read_file
  - grep_search
model: gemini-2.5-pro
temperature: 0.2
max_turns: 15
timeout_mins: 5
recovery_grace_seconds: 30
output_schema:
  type: object
  properties:
    verdict: { type: string, enum: [ok, needs_changes] }
    findings: { type: array, items: { type: string } }
  required: [verdict, findings]
---

# Role
You are a security reviewer.
`;

describe('parseAgentFile', () => {
  it('reads every supported field, the body as the system prompt', async () => {
    const { agent, warnings } = await parseAgentFile(FULL, 'reviewer.md');
    expect(agent).toEqual({
      name: 'security_reviewer',
      description: 'Reviews a change for security problems:\ninjection, secrets, unsafe file access.',
      systemPrompt: '# Role\nYou are a security reviewer.',
      inputSchema: expect.objectContaining({ required: ['prompt'] }),
      outputSchema: {
        type: 'object',
        properties: {
          verdict: { type: 'string', enum: ['ok', 'needs_changes'] },
          findings: { type: 'array', items: { type: 'string' } },
        },
        required: ['verdict', 'findings'],
      },
      tools: ['read_file', 'grep_search'],
      model: 'gemini-2.5-pro',
      temperature: 0.2,
      maxTurns: 15,
      maxMinutes: 5,
      recoveryGraceSeconds: 30,
    });
    expect(warnings).toEqual(['reviewer.md: display_name is not used; ignored']);
  });

  it('accepts CRLF line ends, a byte-order mark and a file ending at the closing line', async () => {
    const { agent } = await parseAgentFile('\uFEFF---\r\nname: a\r\ndescription: d\r\n---\r\nBody.\r\n', 'a.md');
    expect(agent).toMatchObject({ name: 'a', description: 'd', systemPrompt: 'Body.' });
    await expect(parseAgentFile('---\nname: a\ndescription: d\n---', 'a.md')).rejects.toThrow(
      'a.md: body (system prompt): must not be empty',
    );
  });

  it('applies defaults, max_minutes and model: inherit', async () => {
    const text = '---\nname: helper\ndescription: Helps.\nmodel: inherit\nmax_minutes: 2\n---\nHelp.';
    const { agent } = await parseAgentFile(text, 'helper.md');
    expect(agent).toMatchObject({
      name: 'helper',
      maxTurns: 30,
      maxMinutes: 2,
      recoveryGraceSeconds: 60,
      outputSchema: defaultOutputSchema(),
    });
    expect(agent.model).toBeUndefined();
    expect(agent.tools).toBeUndefined();
  });

  it.each([
    [
      'no front matter',
      '# Just Markdown',
      'must start with YAML front matter between "---" lines (name, description, ...)',
    ],
    ['invalid YAML', '---\nname: [unclosed\n---\nx', /^invalid YAML front matter: /],
    ['front matter not a mapping', '---\n- a\n- b\n---\nx', 'front matter must be a set of "key: value" lines'],
    ['empty front matter', '---\n---\nx', 'front matter must be a set of "key: value" lines'],
    ['duplicate key', '---\nname: a\nname: b\n---\nx', /^invalid YAML front matter: Map keys must be unique/],
    ['missing name', '---\ndescription: d\n---\nx', 'name: is required'],
    [
      'bad name',
      agentFile('my-agent', 'd'),
      'name: must start with a lowercase letter and hold only lowercase letters, digits and underscores',
    ],
    ['empty body', agentFile('a', 'd', ''), 'body (system prompt): must not be empty'],
    [
      'bad max_turns',
      '---\nname: a\ndescription: d\nmax_turns: 0\n---\nx',
      'max_turns: must be a whole number above 0',
    ],
    [
      'bad timeout_mins',
      '---\nname: a\ndescription: d\ntimeout_mins: soon\n---\nx',
      'timeout_mins: must be a number of minutes above 0',
    ],
    [
      'both time keys',
      '---\nname: a\ndescription: d\ntimeout_mins: 1\nmax_minutes: 2\n---\nx',
      'timeout_mins: give timeout_mins or max_minutes, not both',
    ],
    [
      'wildcard tools',
      '---\nname: a\ndescription: d\ntools: ["*"]\n---\nx',
      'tools[0]: wildcards are supported only at the end of an MCP tool name (mcp_<server>_*): list other tools by name',
    ],
    [
      'unknown tool',
      '---\nname: a\ndescription: d\ntools: [read_file, web_search]\n---\nx',
      /^tools: unknown tool web_search \(known: read_file, /,
    ],
    [
      'bad output schema',
      '---\nname: a\ndescription: d\noutput_schema: { type: object, properties: { n: { type: number, maximum: 3 } ' +
        '} }\n---\nx',
      /^output_schema\.properties\.n\.maximum: unsupported JSON Schema keyword/,
    ],
    [
      'remote agent',
      '---\nname: a\nkind: remote\nagent_card_url: http://x\n---\n',
      'kind: only local agents are supported (remote agents are not)',
    ],
    [
      'mcp servers',
      '---\nname: a\ndescription: d\nmcp_servers: {}\n---\nx',
      'mcp_servers: is not supported by durable-agent',
    ],
    [
      'unknown key',
      '---\nname: a\ndescription: d\ncolour: red\n---\nx',
      /^colour: unknown field \(known: name, description, tools, /,
    ],
    ['built-in name', agentFile('generalist', 'Mine.'), 'name: "generalist" is a built-in agent; choose another name'],
  ])('refuses %s, naming the file and field', async (_label, text, expected) => {
    let error: unknown;
    try {
      await parseAgentFile(text, '/agents/a.md');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AgentFileError);
    const { file, message } = error as AgentFileError;
    expect(file).toBe('/agents/a.md');
    expect(message.startsWith('/agents/a.md: ')).toBe(true);
    expect(message.slice('/agents/a.md: '.length)).toMatch(
      typeof expected === 'string' ? new RegExp(`^${escape(expected)}$`) : expected,
    );
  });

  it('names several problems at once, by their front-matter keys', async () => {
    const text = '---\nname: A\ndescription: ""\nmax_turns: -1\n---\nx';
    await expect(parseAgentFile(text, 'a.md')).rejects.toThrow(
      'a.md: name: must start with a lowercase letter and hold only lowercase letters, digits and underscores; ' +
        'description: must not be empty; max_turns: must be a whole number above 0',
    );
  });
});

describe('loadAgentFiles', () => {
  it('returns nothing for missing folders', async () => {
    expect(await loadAgentFiles({ userDir, workspaceDir })).toEqual({ agents: [], warnings: [] });
    expect(await loadAgentFiles({})).toEqual({ agents: [], warnings: [] });
  });

  it(
    'reads *.md files of both folders, skipping _drafts and other files; the workspace overrides the ' + 'user',
    async () => {
      const userReviewer = await write(userDir, 'reviewer.md', agentFile('reviewer', 'User reviewer.'));
      await write(userDir, 'docs.md', agentFile('docs_writer', 'Writes docs.'));
      await write(userDir, '_draft.md', 'not an agent');
      await write(userDir, 'notes.txt', 'not an agent');
      const wsReviewer = await write(workspaceDir, 'review.md', agentFile('reviewer', 'Workspace reviewer.'));
      const { agents, warnings } = await loadAgentFiles({ userDir, workspaceDir });
      expect(agents.map((a) => [a.name, a.description])).toEqual([
        ['docs_writer', 'Writes docs.'],
        ['reviewer', 'Workspace reviewer.'],
      ]);
      expect(warnings).toEqual([`${wsReviewer}: agent "reviewer" overrides the one in ${userReviewer}`]);
    },
  );

  it('refuses two files of one folder defining the same agent', async () => {
    const first = await write(workspaceDir, 'a.md', agentFile('reviewer', 'One.'));
    const second = await write(workspaceDir, 'b.md', agentFile('reviewer', 'Two.'));
    await expect(loadAgentFiles({ workspaceDir })).rejects.toThrow(
      `${second}: name: agent "reviewer" is already defined by ${first}`,
    );
  });

  it('refuses a file that shadows a built-in, in either folder', async () => {
    const file = await write(userDir, 'ci.md', agentFile('codebase_investigator', 'Mine.'));
    await expect(loadAgentFiles({ userDir })).rejects.toEqual(
      new AgentFileError(file, 'name', '"codebase_investigator" is a built-in agent; choose another name'),
    );
    const wsFile = await write(workspaceDir, 'g.md', agentFile('generalist', 'Mine.'));
    await expect(loadAgentFiles({ workspaceDir })).rejects.toThrow(
      `${wsFile}: name: "generalist" is a built-in agent; choose another name`,
    );
  });

  it('checks tools against the names it is given', async () => {
    await write(userDir, 'a.md', '---\nname: a\ndescription: d\ntools: [read_file, web_fetch]\n---\nx');
    await expect(loadAgentFiles({ userDir, knownTools: ['read_file', 'web_fetch'] })).resolves.toMatchObject({
      agents: [{ name: 'a', tools: ['read_file', 'web_fetch'] }],
    });
    await expect(loadAgentFiles({ userDir, knownTools: ['read_file'] })).rejects.toThrow(
      /tools: unknown tool web_fetch/,
    );
  });

  it('takes MCP tool names and wildcards as they are: discovery decides later which exist', async () => {
    await write(userDir, 'a.md', '---\nname: a\ndescription: d\ntools: [read_file, mcp_gh_*, mcp_db_query]\n---\nx');
    await expect(loadAgentFiles({ userDir, knownTools: ['read_file'] })).resolves.toMatchObject({
      agents: [{ name: 'a', tools: ['read_file', 'mcp_gh_*', 'mcp_db_query'] }],
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
