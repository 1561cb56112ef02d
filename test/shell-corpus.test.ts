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
const WRAPPERS = ['env', 'nice', 'nohup', 'timeout', 'xargs', 'find'];

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

beforeAll(() => {
  bash = execFileSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-corpus-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  const write = (name: string, body: string) => {
    fs.writeFileSync(path.join(dir, 'bin', name), `#!/bin/sh\n${body}`);
    fs.chmodSync(path.join(dir, 'bin', name), 0o755);
  };
  const logged = (name: string) => `echo ${name} >> "$CORPUS_LOG"\n`;
  const real = (name: string) => spawnSync(bash, ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  STUBS.forEach((name) => write(name, logged(name)));
  for (const name of WRAPPERS)
    if (real(name).startsWith('/')) write(name, `${logged(name)}exec '${real(name)}' "$@"\n`);
  // Shells are not logged: the splitter reports the script of `bash -c`, not `bash`.
  write('bash', `exec '${bash}' "$@"\n`);
  write('sh', `exec '${bash}' "$@"\n`);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The names of the programs `bash -c command` ran. Each run has its own log, and output goes to
 * pipes, which spawnSync reads until every process holding them (background jobs too) is gone.
 */
function runByBash(command: string): string[] {
  const work = fs.mkdtempSync(path.join(dir, 'run-'));
  const log = path.join(work, 'ran.log');
  const env = { PATH: path.join(dir, 'bin'), CORPUS_LOG: log };
  spawnSync(bash, ['-c', command], { cwd: work, env, input: '', timeout: 5000, stdio: 'pipe' });
  return fs.existsSync(log)
    ? fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}

const corpus = readCorpus(CORPUS);

test('the corpus is big enough to mean something', () => {
  expect(corpus.length).toBeGreaterThanOrEqual(80);
});

test('the oracle sees the programs bash runs, wrapped ones included', () => {
  expect(runByBash('git status; touch PWNED')).toEqual(['git', 'touch']);
  expect(runByBash('env X=1 timeout 5 touch PWNED')).toEqual(['env', 'timeout', 'touch']);
  expect(runByBash("bash -c 'git status' && echo $(ls)")).toEqual(['git', 'ls']);
  expect(runByBash('find . -maxdepth 0 -exec touch x \\;')).toEqual(['find', 'touch']);
});

test('whenever the splitter says ok, it reports every program bash runs', () => {
  const missed: string[] = [];
  for (const command of corpus) {
    const split = splitShellCommand(command);
    if (!split.ok) continue;
    const roots = new Set(split.commands.map((c) => c.root));
    const hidden = [...new Set(runByBash(command))].filter((name) => !roots.has(name));
    if (hidden.length > 0)
      missed.push(`${JSON.stringify(command)}: bash ran ${hidden.join(', ')}, splitter saw ${[...roots].join(', ')}`);
  }
  expect(missed).toEqual([]);
});
