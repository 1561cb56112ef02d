import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Gemini CLI for the side-by-side benchmark and the request comparison test: an exact version installed
 * once into the user's cache folder (never into the project), run headless against the same fake Gemini
 * server as durable-agent. Only the npm registry is needed; the version is pinned so that figures of
 * two runs compare the same program.
 */
export const GEMINI_CLI_VERSION = '0.61.0';

/** `$XDG_CACHE_HOME` or `~/.cache`, then `durable-agent/bench/gemini-cli-<version>`. */
export function geminiCliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'durable-agent', 'bench', `gemini-cli-${GEMINI_CLI_VERSION}`);
}

/** Path of Gemini CLI's entry script, installing the pinned version with npm when it is missing. */
export async function ensureGeminiCli(log: (msg: string) => void): Promise<string> {
  const dir = geminiCliCacheDir();
  const entry = path.join(dir, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
  if (fs.existsSync(entry)) return entry;
  log(`installing @google/gemini-cli@${GEMINI_CLI_VERSION} into ${dir}`);
  fs.mkdirSync(dir, { recursive: true });
  // `npm run bench` sets npm_execpath to npm's own script; otherwise npm must be on PATH.
  const npmCli = process.env.npm_execpath;
  const [file, pre] = npmCli && /npm-cli\.js$/.test(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
  const args = [...pre, 'install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', '--ignore-scripts'];
  await new Promise<void>((resolve, reject) =>
    execFile(file, [...args, `@google/gemini-cli@${GEMINI_CLI_VERSION}`], { cwd: dir }, (err, _out, stderr) =>
      err ? reject(new Error(`installing Gemini CLI failed: ${err.message}\n${stderr}`)) : resolve(),
    ),
  );
  if (!fs.existsSync(entry)) throw new Error(`Gemini CLI installed, but ${entry} is missing`);
  return entry;
}

/**
 * A HOME for Gemini CLI: the API-key auth type (without it GOOGLE_GEMINI_BASE_URL is ignored), loop
 * detection off (as the bench's prompts run ours: its LLM check would add calls the script does not
 * answer), no usage statistics or update checks (no internet).
 */
export function makeGeminiHome(dir: string): string {
  fs.mkdirSync(path.join(dir, '.gemini'), { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    model: { disableLoopDetection: true },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  };
  fs.writeFileSync(path.join(dir, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  return dir;
}

export interface GeminiRun {
  /** Process start → the answer's text on stdout. */
  answerMs: number;
  /** Process start → exit. */
  exitMs: number;
}

/**
 * `gemini -p PROMPT --yolo [-m MODEL] --skip-trust` in `workspace`, timed from spawn to the answer on stdout;
 * without `model`, Gemini CLI's default.
 */
export async function runGeminiCli(opts: {
  entry: string;
  home: string;
  baseUrl: string;
  workspace: string;
  prompt: string;
  model?: string;
  answer: string;
}): Promise<GeminiRun> {
  const model = opts.model ? ['-m', opts.model] : [];
  const args = [opts.entry, '-p', opts.prompt, '--yolo', ...model, '--skip-trust'];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: opts.workspace,
    env: {
      ...process.env,
      HOME: opts.home,
      GEMINI_API_KEY: 'bench-fake-key',
      GOOGLE_GEMINI_BASE_URL: opts.baseUrl,
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let answerMs = NaN;
  child.stdout.on('data', (d) => {
    out += d;
    if (Number.isNaN(answerMs) && out.includes(opts.answer)) answerMs = performance.now() - started;
  });
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const exitMs = performance.now() - started;
  if (code !== 0 || Number.isNaN(answerMs))
    throw new Error(`gemini exited ${code} without the answer:\n${out}\n${err.slice(-4000)}`);
  return { answerMs, exitMs };
}
