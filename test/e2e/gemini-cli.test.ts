/**
 * Issue 16 through the binary, called as a script written for Gemini CLI calls `gemini`: its flags
 * (`-p`, `-o/--output-format`, `-y`, `--approval-mode=`, `-m`, `--resume`, `--include-directories`),
 * its `-o json` stats, and its scripted sessions. Run `npm run build` first: the binary runs `dist/`.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionCallResponse, textResponse } from '../../src/fake-gemini';
import { BIN, CliProcess, expectExit, sandboxesCleanedAfterEach } from '../helpers/cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

jest.setTimeout(180_000);

const sandbox = sandboxesCleanedAfterEach();
const address = () => process.env[TEST_ENV_VARS.address];
const DECISIONS = ['accept', 'auto_accept', 'modify', 'reject'];
/** Parsed JSON walked by key: the assertions check every value. */
interface Tree {
  [key: string]: Tree;
}

test('`-p … -o json -y --include-directories`: yolo runs the edits, stats in Gemini CLI’s shape', async () => {
  const box = sandbox('gemini-json', address());
  const script = box.script([
    functionCallResponse({ name: 'write_file', args: { file_path: 'ws/out.txt', content: 'a\nb\n' } }),
    functionCallResponse({ name: 'replace', args: { file_path: 'ws/out.txt', old_string: 'b', new_string: 'c\nd' } }),
    textResponse('Done.'),
  ]);
  const result = await box.run([
    '-p',
    'edit it',
    '-o',
    'json',
    '-y',
    '-m',
    'gemini-2.5-pro',
    '--include-directories',
    'ws',
    '--fake-responses',
    script,
  ]);
  expectExit(result, 0);
  expect(fs.readFileSync(path.join(box.workspace, 'out.txt'), 'utf8')).toBe('a\nc\nd\n');
  const out = JSON.parse(result.stdout) as { response: string; stats: Tree };
  expect(out.response).toBe('Done.');
  const { stats } = out;
  expect(Object.keys(stats).sort()).toEqual(['cost', 'files', 'models', 'toolCalls', 'tools', 'usage']);
  expect(Object.keys(stats.models)).toEqual(['gemini-2.5-pro']);
  const model = stats.models['gemini-2.5-pro'];
  expect(Object.keys(model).sort()).toEqual(['api', 'cost', 'tokens']);
  expect(Object.keys(model.api).sort()).toEqual(['totalErrors', 'totalLatencyMs', 'totalRequests']);
  expect(model.api).toMatchObject({ totalRequests: 3, totalErrors: 0 });
  expect(model.tokens).toEqual({ prompt: 30, candidates: 12, total: 42, cached: 0, thoughts: 0, tool: 0 });
  const { tools } = stats;
  expect(Object.keys(tools).sort()).toEqual([
    'byName',
    'totalCalls',
    'totalDecisions',
    'totalDurationMs',
    'totalFail',
    'totalSuccess',
  ]);
  expect(tools).toMatchObject({ totalCalls: 2, totalSuccess: 2, totalFail: 0 });
  expect(tools.totalDecisions).toEqual({ accept: 0, reject: 0, modify: 0, auto_accept: 2 });
  expect(Object.keys(tools.byName).sort()).toEqual(['replace', 'write_file']);
  expect(Object.keys(tools.byName.replace).sort()).toEqual(['count', 'decisions', 'durationMs', 'fail', 'success']);
  expect(tools.byName.replace).toMatchObject({ count: 1, success: 1, fail: 0 });
  expect(Object.keys(tools.byName.replace.decisions).sort()).toEqual(DECISIONS);
  expect(stats.files).toEqual({ totalLinesAdded: 4, totalLinesRemoved: 1 });
  // Ours, under names Gemini CLI does not use (and `cost` beside each model's `api` and `tokens`).
  expect(stats.toolCalls).toEqual({ total: 2, success: 2, failed: 0 });
  expect(stats.usage).toMatchObject({ input: 30, output: 12, total: 42 });
  expect(Object.keys(stats.cost).sort()).toEqual(['pricedUsd', 'unpriced', 'usd']);
});

test('default mode without a terminal: stderr and stream-json say what waits and how to answer; approve ends it', async () => {
  const box = sandbox('gemini-approval', address());
  const script = box.script([
    functionCallResponse({ name: 'write_file', args: { file_path: 'ws/x.txt', content: 'x' } }),
    textResponse('Written.'),
  ]);
  const run = box.start([
    '--prompt',
    'write',
    '--output-format',
    'stream-json',
    '-m',
    'gemini-2.5-flash',
    '--fake-responses',
    script,
  ]);
  const [line] = await run.waitFor('stdout', /^.*"approval".*$/m);
  const waiting = JSON.parse(line) as {
    type: string;
    severity: string;
    message: string;
    approval: Record<string, string>;
  };
  const init = JSON.parse(run.stdout.split('\n')[0]) as { session_id: string; model: string };
  expect(init.model).toBe('gemini-2.5-flash');
  const id = init.session_id;
  const callId = waiting.approval.tool_id;
  expect(waiting).toMatchObject({ type: 'error', severity: 'warning' });
  expect(waiting.message).toContain('write_file');
  expect(waiting.message).toContain('--approval-timeout');
  expect(waiting.approval).toEqual({
    tool_id: callId,
    tool_name: 'write_file',
    parameters: { file_path: 'ws/x.txt', content: 'x' },
    approve: `durable-agent approve ${id} ${callId}`,
    deny: `durable-agent deny ${id} ${callId}`,
    signal: `temporal workflow signal --workflow-id ${id} --name toolConfirmation --input '{"callId":"${callId}","outcome":"proceed_once"}'`,
  });
  await run.waitFor(
    'stderr',
    /approve: durable-agent approve \S+ \S+\n.*deny: .*\n.*temporal workflow signal.*\n.*waits, durably/,
  );
  expectExit(await box.run(waiting.approval.approve.split(' ').slice(1)), 0);
  const result = await run.done;
  expectExit(result, 0);
  expect(fs.readFileSync(path.join(box.workspace, 'x.txt'), 'utf8')).toBe('x');
  const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { stats: Tree };
  expect(Object.keys(last.stats.models)).toEqual(['gemini-2.5-flash']);
  expect(last.stats.tools.totalDecisions).toEqual({ accept: 1, reject: 0, modify: 0, auto_accept: 0 });
});

test('a scripted session is continued by later processes with the same script: --resume, then --resume ID', async () => {
  const box = sandbox('gemini-resume', address());
  const script = box.script([textResponse('Answer.')]);
  const session = `s-${Date.now()}`;
  const json = async (args: string[]) => {
    const result = await box.run([...args, '--fake-responses', script, '-o', 'json'], { timeoutMs: 60_000 });
    expectExit(result, 0);
    return JSON.parse(result.stdout) as { session_id: string; response: string };
  };
  expect(await json(['-p', 'one', '--session', session])).toMatchObject({ session_id: `${session}-p1` });
  // The session lives on the first run's private queue: this run must serve it, or it waits forever.
  const second = await json(['-p', 'two', '--resume']);
  expect(second).toEqual({ session_id: `${session}-p2`, response: 'Answer.', stats: expect.any(Object) });
  expect(await json(['-p', 'three', '--resume', second.session_id])).toMatchObject({ session_id: `${session}-p3` });
});

test('bad or contradictory Gemini CLI flags exit 42 with one clear line, nothing started', async () => {
  const box = sandbox('gemini-bad', address());
  const other = sandbox('gemini-bad-empty', address());
  const script = box.script([textResponse('never')]);
  const cases: [string[], RegExp][] = [
    [['--bogus'], /unknown option '--bogus'/],
    [['-p', 'x', '-y', '--approval-mode', 'default'], /Cannot use both --yolo \(-y\) and --approval-mode together/],
    [['run', 'hi', '-p', 'x'], /Cannot use both a positional prompt and the --prompt \(-p\) flag together/],
    [['-p', 'x', '--include-directories', '/'], /--include-directories: \/ is outside the workspace/],
    [['-p', 'x', '--include-directories', 'nope'], /--include-directories: .*nope is not a directory/],
    [['-p', 'x', '--output-format', 'xml'], /argument 'xml' is invalid/],
    [['-p', 'x', '-o', 'json', '--output-format', 'text'], /-o json and --output-format text disagree/],
    [['-p', 'x', '--approval-mode=sometimes'], /argument 'sometimes' is invalid/],
    [['-p', 'x', '--resume', 'nosuch', '--fake-responses', script], /--resume: no session nosuch/],
    [['-p', 'x', '--resume', '--session', 'a'], /--resume and --session both name a session/],
  ];
  const results = await Promise.all(cases.map(([args]) => box.run(args)));
  results.forEach((result, i) => {
    expectExit(result, 42);
    expect(result.stderr).toMatch(cases[i][1]);
  });
  const none = await other.run(['-p', 'x', '--resume', 'latest', '-w', other.workspace, '--fake-responses', script]);
  expectExit(none, 42);
  expect(none.stderr).toMatch(/No previous sessions found for this project/);
});

test('Gemini CLI settings: model.name, general.defaultApprovalMode and tools.exclude apply, ignored keys are named, bad values exit 52', async () => {
  const box = sandbox('gemini-settings', address());
  const settings = (home: string, value: unknown) => {
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify(value));
  };
  settings(box.home, {
    model: { name: 'gemini-2.5-flash' },
    general: { defaultApprovalMode: 'auto_edit', vimMode: true },
    tools: { exclude: ['run_shell_command'] },
    ui: { theme: 'GitHub' },
  });
  const script = box.script([
    functionCallResponse([
      { name: 'write_file', args: { file_path: 'ws/s.txt', content: 's' } },
      { name: 'run_shell_command', args: { command: 'echo hi' } },
    ]),
    textResponse('ok'),
  ]);
  // Piped input comes before -p's text, as Gemini CLI joins them (`cat log | gemini -p "explain"`).
  const child = spawn(process.execPath, [BIN, '-p', 'go', '-o', 'stream-json', '--fake-responses', script], {
    cwd: box.dir,
    env: box.env(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdin.end('from the pipe\n');
  const result = await new CliProcess(child, 90_000).done;
  expectExit(result, 0);
  const lines = result.stdout
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          type: string;
          model?: string;
          status?: string;
          content?: string;
          error?: { message: string };
        },
    );
  expect(lines[0]).toMatchObject({ type: 'init', model: 'gemini-2.5-flash' });
  expect(lines[1]).toMatchObject({ type: 'message', role: 'user', content: 'from the pipe\n\n\ngo' });
  const results = lines.filter((l) => l.type === 'tool_result');
  expect(results.map((l) => l.status)).toEqual(['success', 'error']);
  expect(results[1].error?.message).toBe('Tool execution denied by policy.');
  expect(fs.readFileSync(path.join(box.workspace, 's.txt'), 'utf8')).toBe('s');
  expect(result.stderr).toMatch(/\[WARNING\] settings: \S+settings\.json: general\.vimMode, ui\.theme: not used/);
  const bad: [unknown, RegExp][] = [
    [{ model: { name: '' } }, /model\.name: must not be empty/],
    [{ general: { defaultApprovalMode: 'yolo' } }, /general\.defaultApprovalMode/],
    [{ tools: { core: 'read_file' } }, /tools\.core/],
  ];
  const runs = bad.map(([value]) => {
    const other = sandbox('gemini-settings-bad', address());
    settings(other.home, value);
    return other.run(['-p', 'x', '--fake-responses', script]);
  });
  (await Promise.all(runs)).forEach((run, i) => {
    expectExit(run, 52);
    expect(run.stderr).toMatch(bad[i][1]);
  });
});

test('tool_result carries executed_parameters when a BeforeTool hook or a modify approval rewrote the model’s arguments', async () => {
  const box = sandbox('gemini-executed', address());
  fs.mkdirSync(box.home, { recursive: true });
  const rewrite = JSON.stringify({ hookSpecificOutput: { tool_input: { content: 'hooked' } } });
  const hook = `if grep -q h.txt; then echo '${rewrite}'; else echo '{}'; fi`;
  fs.writeFileSync(
    path.join(box.home, 'settings.json'),
    JSON.stringify({ hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: hook }] }] } }),
  );
  const script = box.script([
    functionCallResponse([
      { name: 'write_file', args: { file_path: 'ws/h.txt', content: 'model' } },
      { name: 'write_file', args: { file_path: 'ws/m.txt', content: 'model' } },
    ]),
    textResponse('ok'),
  ]);
  const run = box.start(['-p', 'go', '-o', 'stream-json', '--fake-responses', script]);
  type Line = { type: string; tool_id?: string; parameters?: unknown; executed_parameters?: unknown };
  const lines = () =>
    run.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line & { approval?: Record<string, string> });
  const waiting = async (n: number) => {
    await run.waitFor('stdout', new RegExp(`("approval"[^\\n]*\\n[^]*){${n}}`));
    return lines().filter((l) => l.approval)[n - 1].approval!;
  };
  const first = await waiting(1);
  expectExit(await box.run(first.approve.split(' ').slice(1)), 0);
  const second = await waiting(2);
  const modify = JSON.stringify({
    callId: second.tool_id,
    outcome: 'modify',
    args: { file_path: 'ws/m.txt', content: 'mod' },
  });
  // The stock Temporal CLI, as the hint's last line shows it, with a modify payload.
  execFileSync(process.env[TEST_ENV_VARS.cliPath]!, [
    'workflow',
    'signal',
    '--address',
    address()!,
    '--workflow-id',
    second.approve.split(' ')[2],
    '--name',
    'toolConfirmation',
    '--input',
    modify,
  ]);
  expectExit(await run.done, 0);
  expect(fs.readFileSync(path.join(box.workspace, 'h.txt'), 'utf8')).toBe('hooked');
  expect(fs.readFileSync(path.join(box.workspace, 'm.txt'), 'utf8')).toBe('mod');
  const all = lines();
  const uses = all.filter((l) => l.type === 'tool_use');
  expect(uses.map((l) => l.parameters)).toEqual([
    { file_path: 'ws/h.txt', content: 'model' },
    { file_path: 'ws/m.txt', content: 'model' },
  ]);
  const results = all.filter((l) => l.type === 'tool_result');
  expect(results.map((l) => l.executed_parameters)).toEqual([
    { file_path: 'ws/h.txt', content: 'hooked' },
    { file_path: 'ws/m.txt', content: 'mod' },
  ]);
  const stats = (all.at(-1) as unknown as { stats: Tree }).stats;
  expect(stats.tools.totalDecisions).toEqual({ accept: 1, reject: 0, modify: 1, auto_accept: 0 });
});

test('`--version` and `-V` print the package version', () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V'])
    expect(execFileSync(process.execPath, [BIN, flag], { encoding: 'utf8' })).toBe(`${version}\n`);
});
