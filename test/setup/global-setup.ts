/**
 * jest globalSetup: one Temporal dev server and one workflow bundle for the whole run, because
 * starting a server or running webpack costs seconds each on a 2-core machine. Results reach the
 * test workers through the environment (TEST_ENV_VARS); test/helpers/temporal-env.ts reads them.
 * A DA_TEST_TEMPORAL_ADDRESS already set means: use that server, start none.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { DEFAULT_SEARCH_ATTRIBUTES, startDevServer, type DevServer } from '../../src/server/dev-server';
import { ensureTemporalCli, projectRoot } from '../../src/server/temporal-cli';
import { TEST_ENV_VARS } from '../helpers/temporal-env';

/** Server settings any test may rely on; a test that needs others starts its own server. */
const TEST_DYNAMIC_CONFIG: Record<string, string | number | boolean> = {};

export const SERVER_PID_FILE = 'dev-server.pid';

/** Handed to global-teardown, which jest 29 runs in this same process. */
export const SERVER_HANDLE = Symbol.for('durable-agent.test.dev-server');

const log = (msg: string) => process.stderr.write(`[global-setup] ${msg}\n`);

const TMP_PREFIX = 'durable-agent-test-';

export default async function globalSetup(): Promise<void> {
  removeAbandonedRuns();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), TMP_PREFIX));
  process.env[TEST_ENV_VARS.tmpDir] = tmpDir;
  try {
    await provision(projectRoot(), tmpDir);
  } catch (err) {
    fs.rmSync(tmpDir, { recursive: true, force: true }); // jest skips teardown when setup fails
    throw err;
  }
}

async function provision(root: string, tmpDir: string): Promise<void> {
  const cli = await timed(
    ensureTemporalCli({
      projectRoot: root,
      explicitPath: process.env.TEMPORAL_CLI_PATH,
      searchPath: process.env.PATH,
      env: process.env,
      log,
    }),
  );
  process.env[TEST_ENV_VARS.cliPath] = cli.result;
  // The server is mostly waiting while webpack computes: starting both at once saves seconds.
  const [server, bundle] = await Promise.allSettled([
    timed(startSharedServer(cli.result, tmpDir)),
    timed(bundleWorkflows(root, tmpDir)),
  ]);
  if (server.status === 'rejected') throw server.reason;
  if (bundle.status === 'rejected') {
    await server.value.result?.stop();
    throw bundle.reason;
  }
  log(
    `Temporal CLI ${seconds(cli.ms)}, dev server ${seconds(server.value.ms)} ` +
      `(${process.env[TEST_ENV_VARS.address]}), workflow bundle ${seconds(bundle.value.ms)}`,
  );
}

/**
 * A run killed before its teardown (SIGKILL, a CI timeout) leaves its directory behind. Those whose
 * server is gone are removed; directories of runs still going, possibly concurrent ones, stay.
 */
function removeAbandonedRuns(): void {
  for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(TMP_PREFIX))) {
    const dir = path.join(os.tmpdir(), name);
    try {
      const pid = Number(fs.readFileSync(path.join(dir, SERVER_PID_FILE), 'utf8'));
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

async function startSharedServer(cliPath: string, tmpDir: string): Promise<DevServer | undefined> {
  if (process.env[TEST_ENV_VARS.address]) return undefined;
  const server = await startDevServer({
    cliPath,
    dbFile: path.join(tmpDir, 'temporal.db'),
    headless: true,
    dynamicConfig: TEST_DYNAMIC_CONFIG,
    searchAttributes: DEFAULT_SEARCH_ATTRIBUTES,
  });
  fs.writeFileSync(path.join(tmpDir, SERVER_PID_FILE), String(server.process.pid));
  (globalThis as Record<symbol, unknown>)[SERVER_HANDLE] = server;
  process.env[TEST_ENV_VARS.address] = server.address;
  return server;
}

/**
 * A missing or broken src/workflows/index.ts does not stop the run: tests without workflows still
 * run, and getTestEnv().workflowBundle throws the bundler's error in the tests that need it.
 */
async function bundleWorkflows(root: string, tmpDir: string): Promise<void> {
  const workflowsPath = path.join(root, 'src', 'workflows', 'index.ts');
  if (!fs.existsSync(workflowsPath)) {
    return skipBundle(`${path.relative(root, workflowsPath)} does not exist`);
  }
  const errors: string[] = [];
  try {
    const payloadConverterPath = path.join(root, 'src', 'payload-converter.ts');
    const { code } = await bundleWorkflowCode({ workflowsPath, payloadConverterPath, logger: bundlerLogger(errors) });
    const codePath = path.join(tmpDir, 'workflow-bundle.js');
    fs.writeFileSync(codePath, code);
    process.env[TEST_ENV_VARS.workflowBundle] = codePath;
  } catch (err) {
    skipBundle(`bundling failed: ${(err as Error).message}\n${summarizeWebpackErrors(errors.join('\n'))}`);
  }
}

function skipBundle(why: string): void {
  process.env[TEST_ENV_VARS.workflowBundleError] = why;
  log(`warning: no workflow bundle for this run (${why.split('\n')[0]})`);
}

/** webpack's progress and resolution traces are noise in test output; errors are kept. */
function bundlerLogger(errors: string[]) {
  const ignore = () => undefined;
  const keep = (message: string) => void errors.push(message);
  return {
    log: (level: string, message: string) => (level === 'ERROR' ? keep(message) : undefined),
    trace: ignore,
    debug: ignore,
    info: ignore,
    warn: (message: string) => log(`bundler warning: ${message}`),
    error: keep,
  };
}

function summarizeWebpackErrors(output: string): string {
  const lines = output.split('\n');
  const important = lines.filter((l) => /ERROR in|Module not found|Can't resolve|error TS|disallowed/i.test(l));
  return (important.length > 0 ? important : lines).slice(0, 12).join('\n');
}

async function timed<T>(promise: Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await promise;
  return { result, ms: Date.now() - started };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
