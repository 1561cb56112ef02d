/**
 * The Temporal server and workflow bundle shared by the whole jest run (started once by
 * test/setup/global-setup.ts), as seen from one test file.
 *
 * NativeConnection installs the default Temporal Runtime: a test file that wants its own
 * `Runtime.install(...)` must call it before getTestEnv().
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';

/** Environment variables through which global setup reaches the test workers. */
export const TEST_ENV_VARS = {
  address: 'DA_TEST_TEMPORAL_ADDRESS',
  cliPath: 'DA_TEST_TEMPORAL_CLI',
  workflowBundle: 'DA_TEST_WORKFLOW_BUNDLE',
  /** Why there is no bundle (src/workflows/index.ts missing or failing to bundle). */
  workflowBundleError: 'DA_TEST_WORKFLOW_BUNDLE_ERROR',
  tmpDir: 'DA_TEST_TMP',
} as const;

export interface TestEnv {
  address: string;
  client: Client;
  nativeConnection: NativeConnection;
  /** For `Worker.create({ workflowBundle })`; throws, with the reason, when global setup could not bundle. */
  workflowBundle: { codePath: string };
  cliPath: string;
  /** A directory of this jest run, removed by global teardown. */
  tmpDir: string;
  /** A task queue no other test uses, so workers of different tests never steal each other's tasks. */
  uniqueTaskQueue(prefix: string): string;
}

let cached: Promise<TestEnv> | undefined;

/** Connects once per test file (jest gives each file its own module registry). */
export function getTestEnv(): Promise<TestEnv> {
  cached ??= connectTestEnv().catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

/** Closes what getTestEnv opened; call it in afterAll. */
export async function closeTestEnv(): Promise<void> {
  const pending = cached;
  cached = undefined;
  if (!pending) return;
  const env = await pending;
  await env.client.connection.close();
  await env.nativeConnection.close();
}

async function connectTestEnv(): Promise<TestEnv> {
  const address = requireVar(TEST_ENV_VARS.address);
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  const bundlePath = process.env[TEST_ENV_VARS.workflowBundle];
  return {
    address,
    client: new Client({ connection, namespace: 'default' }),
    nativeConnection,
    get workflowBundle() {
      if (!bundlePath) {
        const why = process.env[TEST_ENV_VARS.workflowBundleError] ?? 'global setup made none';
        throw new Error(`No workflow bundle: ${why}`);
      }
      return { codePath: bundlePath };
    },
    cliPath: requireVar(TEST_ENV_VARS.cliPath),
    tmpDir: requireVar(TEST_ENV_VARS.tmpDir),
    uniqueTaskQueue: (prefix) => `${prefix}-${randomUUID().slice(0, 8)}`,
  };
}

function requireVar(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run tests through jest, whose global setup provides it`);
  return value;
}
