import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { splitShellCommand } from '../src/core/policy/shell-split';

/**
 * The shell splitter checked against bash itself. Every command of the corpus runs under
 * `bash -c` in an empty directory, with an empty environment and a PATH holding only stubs: one
 * executable per command name the corpus uses, which appends its name to a log. Whenever the
 * splitter says a command is ok, every program bash actually ran must be among the commands the
 * splitter reported; otherwise policy would have judged less than what runs.
 */

const CORPUS = path.join(__dirname, 'fixtures', 'shell-corpus.txt');
const STUBS = ['git', 'touch', 'rm', 'ls', 'cat', 'grep', 'sort', 'head', 'tee', 'make', 'npm', 'g', 'f', 'printf'];
/** Logged, then run for real: the real program finds the command it wraps among the stubs. */
const WRAPPERS = ['env', 'nice', 'nohup', 'timeout', 'xargs'];

/** One command per line, except that the lines between two `%%` lines form one command. */
function readCorpus(file: string): string[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const commands: string[] = [];
  let block: string[] | undefined;
  for (const [k, line] of lines.entries()) {
    if (line === '%%') {
      if (block) commands.push(block.join('\n'));
      block = block ? undefined : [];
    } else if (block) block.push(line);
    else if (line !== '' && !(line.startsWith('# ') && commands.length === 0 && k < 5)) commands.push(line);
  }
  return commands;
}

let dir: string;
let bash: string;
const log = () => path.join(dir, 'ran.log');

beforeAll(() => {
  bash = execFileSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-corpus-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  const stub = (name: string, then = '') => {
    fs.writeFileSync(path.join(dir, 'bin', name), `#!/bin/sh\necho ${name} >> '${log()}'\n${then}`);
    fs.chmodSync(path.join(dir, 'bin', name), 0o755);
  };
  STUBS.forEach((name) => stub(name));
  for (const name of WRAPPERS) {
    const real = spawnSync(bash, ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (real.startsWith('/')) stub(name, `exec '${real}' "$@"\n`);
  }
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The names of the programs `bash -c command` ran, in order. */
function runByBash(command: string): string[] {
  const work = fs.mkdtempSync(path.join(dir, 'run-'));
  fs.rmSync(log(), { force: true });
  spawnSync(bash, ['-c', command], { cwd: work, env: { PATH: path.join(dir, 'bin') }, input: '', timeout: 5000, stdio: ['pipe', 'ignore', 'ignore'] });
  return fs.existsSync(log()) ? fs.readFileSync(log(), 'utf8').split('\n').filter((l) => l !== '') : [];
}

const corpus = readCorpus(CORPUS);

test('the corpus is big enough to mean something', () => {
  expect(corpus.length).toBeGreaterThanOrEqual(80);
});

test('whenever the splitter says ok, it reports every program bash runs', () => {
  const missed: string[] = [];
  for (const command of corpus) {
    const split = splitShellCommand(command);
    if (!split.ok) continue;
    const roots = new Set(split.commands.map((c) => c.root));
    const hidden = [...new Set(runByBash(command))].filter((name) => !roots.has(name));
    if (hidden.length > 0) missed.push(`${JSON.stringify(command)}: bash ran ${hidden.join(', ')}, splitter saw ${[...roots].join(', ')}`);
  }
  expect(missed).toEqual([]);
});
