import * as os from 'node:os';
import * as path from 'node:path';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { z } from 'zod';
import { DEFAULT_TASK_QUEUE } from '../workflows/api';
import { ConfigError } from './errors';
import type { SystemMdPaths } from '../core/prompt/shape';

/**
 * Everything the process takes from its environment, read once here (invariant 9) and passed down.
 * The API key stays in this object and the SDK client: it never enters workflow inputs or logs.
 */
export interface Config {
  geminiApiKey?: string;
  geminiBaseUrl?: string;
  temporalAddress: string;
  /** TEMPORAL_ADDRESS or a Temporal profile named the address; unset, it is the embedded server's default. */
  temporalAddressChosen: boolean;
  temporalNamespace: string;
  /** Connection options from Temporal's environment configuration (TLS, API key, profile). */
  temporalConnection: ReturnType<typeof loadClientConnectConfig>['connectionOptions'];
  taskQueue: string;
  home: string;
  temporalCliPath?: string;
  /** `postgres://…` to keep transcripts and the journal in PostgreSQL; unset: files under `home`. */
  storeUrl?: string;
  /** Admin-tier policy directory (highest tier). */
  adminPolicyDir: string;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** `DURABLE_AGENT_LOG_LEVEL` was set: commands that talk to a person keep a quieter default otherwise. */
  logLevelSet: boolean;
  /** The PATH used to look for a `temporal` binary. */
  searchPath: string;
  /** Time `grep_search` may spend matching one file before it reports the pattern as too slow. */
  grepTimeoutMs?: number;
  /**
   * How long a workflow task waits on this worker's sticky queue before any worker may take it
   * (Temporal's default: 10 s). Shorter moves a crashed worker's workflows to another one sooner.
   */
  stickyTimeoutMs?: number;
  /** `DURABLE_AGENT_WORKFLOW_HEAP_MB`: the V8 heap limit of a worker's workflow thread (worker/heap.ts). */
  workflowHeapMiB?: number;
  /**
   * `DURABLE_AGENT_TRUST_WORKSPACE=1`: treat the workspace as trusted for this process (CI, tests),
   * as Gemini CLI's skip-trust; nothing is written to the trusted-folders file.
   */
  trustWorkspace: boolean;
  /** `GEMINI_SYSTEM_MD` / `GEMINI_WRITE_SYSTEM_MD` as absolute paths (see systemMdPath); unset: off. */
  systemMd: SystemMdPaths;
}

const envSchema = z.object({
  GEMINI_API_KEY: z.string().min(1).optional(),
  GOOGLE_GEMINI_BASE_URL: z
    .url({ message: 'GOOGLE_GEMINI_BASE_URL must be a URL such as http://127.0.0.1:8080' })
    .optional(),
  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).optional(),
  DURABLE_AGENT_HOME: z.string().min(1).optional(),
  DURABLE_AGENT_TASK_QUEUE: z.string().min(1).optional(),
  DURABLE_AGENT_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'silent']).optional(),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  DURABLE_AGENT_ADMIN_POLICIES: z.string().min(1).optional(),
  DURABLE_AGENT_STORE: z
    .string()
    .regex(/^(file|postgres(ql)?:\/\/.+)$/, { message: 'DURABLE_AGENT_STORE must be "file" or a postgres:// URL' })
    .optional(),
  DURABLE_AGENT_GREP_TIMEOUT_MS: z.coerce
    .number({ message: 'DURABLE_AGENT_GREP_TIMEOUT_MS must be a whole number of milliseconds' })
    .int({ message: 'DURABLE_AGENT_GREP_TIMEOUT_MS must be a whole number of milliseconds' })
    .min(100, { message: 'DURABLE_AGENT_GREP_TIMEOUT_MS must be at least 100' })
    .optional(),
  DURABLE_AGENT_STICKY_TIMEOUT_MS: z.coerce
    .number({ message: 'DURABLE_AGENT_STICKY_TIMEOUT_MS must be a whole number of milliseconds' })
    .int({ message: 'DURABLE_AGENT_STICKY_TIMEOUT_MS must be a whole number of milliseconds' })
    .min(100, { message: 'DURABLE_AGENT_STICKY_TIMEOUT_MS must be at least 100' })
    .optional(),
  DURABLE_AGENT_WORKFLOW_HEAP_MB: z.coerce
    .number({ message: 'DURABLE_AGENT_WORKFLOW_HEAP_MB must be a whole number of MiB' })
    .int({ message: 'DURABLE_AGENT_WORKFLOW_HEAP_MB must be a whole number of MiB' })
    .min(256, { message: 'DURABLE_AGENT_WORKFLOW_HEAP_MB must be at least 256' })
    .optional(),
  DURABLE_AGENT_TRUST_WORKSPACE: z
    .string()
    .regex(/^(1|0|true|false)$/i, { message: 'DURABLE_AGENT_TRUST_WORKSPACE must be 1, 0, true or false' })
    .optional(),
  // Read by bin/spare-client.js and the spare's owner (cli/spare-owner.ts); checked here like the rest.
  DURABLE_AGENT_SPARE: z
    .string()
    .regex(/^[01]$/, { message: 'DURABLE_AGENT_SPARE must be 0 (no spare process) or 1' })
    .optional(),
  PATH: z.string().optional(),
  GEMINI_SYSTEM_MD: z.string().optional(),
  GEMINI_WRITE_SYSTEM_MD: z.string().optional(),
});

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const blankToUndefined = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
  const parsed = envSchema.safeParse(blankToUndefined);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError('environment', issues);
  }
  const e = parsed.data;
  const temporal = loadClientConnectConfig({ overrideEnvVars: definedOnly(blankToUndefined) });
  return {
    geminiApiKey: e.GEMINI_API_KEY,
    geminiBaseUrl: e.GOOGLE_GEMINI_BASE_URL,
    temporalAddress: e.TEMPORAL_ADDRESS ?? temporal.connectionOptions.address ?? '127.0.0.1:7233',
    temporalAddressChosen: (e.TEMPORAL_ADDRESS ?? temporal.connectionOptions.address) !== undefined,
    temporalNamespace: e.TEMPORAL_NAMESPACE ?? temporal.namespace ?? 'default',
    temporalConnection: temporal.connectionOptions,
    taskQueue: e.DURABLE_AGENT_TASK_QUEUE ?? DEFAULT_TASK_QUEUE,
    home: path.resolve(e.DURABLE_AGENT_HOME ?? path.join(os.homedir(), '.durable-agent')),
    temporalCliPath: e.TEMPORAL_CLI_PATH,
    storeUrl: e.DURABLE_AGENT_STORE && e.DURABLE_AGENT_STORE !== 'file' ? e.DURABLE_AGENT_STORE : undefined,
    adminPolicyDir: path.resolve(e.DURABLE_AGENT_ADMIN_POLICIES ?? '/etc/durable-agent/policies'),
    logLevel: e.DURABLE_AGENT_LOG_LEVEL ?? 'warn',
    logLevelSet: e.DURABLE_AGENT_LOG_LEVEL !== undefined,
    searchPath: e.PATH ?? '',
    grepTimeoutMs: e.DURABLE_AGENT_GREP_TIMEOUT_MS,
    stickyTimeoutMs: e.DURABLE_AGENT_STICKY_TIMEOUT_MS,
    workflowHeapMiB: e.DURABLE_AGENT_WORKFLOW_HEAP_MB,
    trustWorkspace: ['1', 'true'].includes(e.DURABLE_AGENT_TRUST_WORKSPACE?.toLowerCase() ?? ''),
    systemMd: definedPaths({
      replace: systemMdPath(e.GEMINI_SYSTEM_MD, cwd),
      write: systemMdPath(e.GEMINI_WRITE_SYSTEM_MD, cwd),
    }),
  };
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * Gemini CLI's reading of `GEMINI_SYSTEM_MD` and `GEMINI_WRITE_SYSTEM_MD`: unset, blank, `0` or `false` is
 * off; `1` or `true` is `.gemini/system.md` under the current directory; anything else is a path (`~`
 * is the home directory), resolved against the current directory.
 */
export function systemMdPath(value: string | undefined, cwd: string): string | undefined {
  const given = value?.trim();
  if (!given || ['0', 'false'].includes(given.toLowerCase())) return undefined;
  if (['1', 'true'].includes(given.toLowerCase())) return path.resolve(cwd, '.gemini', 'system.md');
  const home = given === '~' || given.startsWith('~/') ? path.join(os.homedir(), given.slice(1)) : given;
  return path.resolve(cwd, home);
}

function definedPaths(paths: SystemMdPaths): SystemMdPaths {
  return Object.fromEntries(Object.entries(paths).filter(([, v]) => v !== undefined));
}
