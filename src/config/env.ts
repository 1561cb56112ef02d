import * as os from 'node:os';
import * as path from 'node:path';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { z } from 'zod';
import { withoutSecrets, type EnvRedaction } from '../activities/env-filter';
import { DEFAULT_TASK_QUEUE } from '../workflows/api';
import { ConfigError } from './errors';
import type { SystemMdPaths } from '../core/prompt/shape';
import { definedPaths, systemMdPath } from './system-md';

export { systemMdPath } from './system-md';

/**
 * Everything the process takes from its environment, read once here and passed down: this is the
 * only module that touches `process.env` (test/env-only-in-config.test.ts holds it so). Every
 * variable is in `envSchema` below with its check; a bad value stops the command with a
 * `ConfigError` naming it. The API key stays in this object and the SDK client: it never enters
 * workflow inputs or logs.
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
  /** The `OTEL_` variables that turn tracing on (worker/tracing.ts reads them, warning on what it cannot use). */
  otel: OtelEnv;
  /** `DURABLE_AGENT_METRICS`: HOST:PORT for Prometheus; checked with `--metrics`, which wins (worker/metrics.ts). */
  metricsAddress?: string;
  /** `DURABLE_AGENT_DEPLOYMENT` / `DURABLE_AGENT_BUILD_ID`, checked with their flags (worker/deployment.ts). */
  deployment: { deployment?: string; buildId?: string };
  /** `DURABLE_AGENT_SPARE=0` keeps `worker`/`server` from holding a spare process (cli/spare-owner.ts). */
  spareAllowed: boolean;
}

/**
 * Tracing's standard variables. Not refused here: a tracing setting we cannot honour is a warning and
 * tracing stays off, prompts run either way.
 */
export const OTEL_VARIABLES = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
] as const;
/** The variables of OTEL_VARIABLES that are set; others are ignored. */
export type OtelEnv = Readonly<Record<string, string | undefined>>;

/** A whole number of `unit` from `min` up, named in its errors. */
function wholeNumber(name: string, unit: string, min: number) {
  const whole = { message: `${name} must be a whole number of ${unit}` };
  return z.coerce
    .number(whole)
    .int(whole)
    .min(min, { message: `${name} must be at least ${min}` })
    .optional();
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
  DURABLE_AGENT_GREP_TIMEOUT_MS: wholeNumber('DURABLE_AGENT_GREP_TIMEOUT_MS', 'milliseconds', 100),
  DURABLE_AGENT_STICKY_TIMEOUT_MS: wholeNumber('DURABLE_AGENT_STICKY_TIMEOUT_MS', 'milliseconds', 100),
  DURABLE_AGENT_WORKFLOW_HEAP_MB: wholeNumber('DURABLE_AGENT_WORKFLOW_HEAP_MB', 'MiB', 256),
  DURABLE_AGENT_TRUST_WORKSPACE: z
    .string()
    .regex(/^(1|0|true|false)$/i, { message: 'DURABLE_AGENT_TRUST_WORKSPACE must be 1, 0, true or false' })
    .optional(),
  // Read by bin/spare-client.js and the spare's owner (cli/spare-owner.ts); checked here like the rest.
  DURABLE_AGENT_SPARE: z
    .string()
    .regex(/^[01]$/, { message: 'DURABLE_AGENT_SPARE must be 0 (no spare process) or 1' })
    .optional(),
  // HOST:PORT, DURABLE_AGENT_DEPLOYMENT and DURABLE_AGENT_BUILD_ID are checked together with the
  // `worker`/`server` flags that override them (a bad variable under a good flag is not an error).
  DURABLE_AGENT_METRICS: z.string().optional(),
  DURABLE_AGENT_DEPLOYMENT: z.string().optional(),
  DURABLE_AGENT_BUILD_ID: z.string().optional(),
  PATH: z.string().optional(),
  GEMINI_SYSTEM_MD: z.string().optional(),
  GEMINI_WRITE_SYSTEM_MD: z.string().optional(),
  ...Object.fromEntries(OTEL_VARIABLES.map((name) => [name, z.string().optional()])),
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
    otel: otelEnv(blankToUndefined),
    metricsAddress: e.DURABLE_AGENT_METRICS,
    deployment: { deployment: e.DURABLE_AGENT_DEPLOYMENT, buildId: e.DURABLE_AGENT_BUILD_ID },
    spareAllowed: e.DURABLE_AGENT_SPARE !== '0',
  };
}

/** The `OTEL_` variables of `env`, for a worker built without a `Config` (tests, benchmarks). */
export function otelEnv(env: NodeJS.ProcessEnv = process.env): OtelEnv {
  return Object.fromEntries(OTEL_VARIABLES.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}

/**
 * The environment is also handed on whole, never read for settings: to the processes this one
 * starts as itself (the background server, the spare process). Read when called: a spare process
 * takes its client's environment after it has started (`adoptEnvironment`).
 */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * What shell commands, hooks and MCP servers see: the environment without secrets and without what
 * the user's `security.environmentVariableRedaction` withholds (activities/env-filter.ts).
 */
export function commandEnvironment(redaction: EnvRedaction = {}): NodeJS.ProcessEnv {
  return withoutSecrets(process.env, redaction);
}

/** A spare process becoming its client's command: the client's environment replaces this one's. */
export function adoptEnvironment(env: Record<string, string>): void {
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, env);
}

/**
 * Variables read when they are used rather than at start, because what reads them has no `Config`
 * at hand (hints printed from anywhere in the CLI) and a spare process changes its environment
 * after start: PATH (where a printed command is looked for) and the approval editor.
 */
export const liveEnv = {
  searchPath: (): string => process.env.PATH ?? '',
  /** `$VISUAL`, else `$EDITOR`, else `vi`, as git and most editors' callers choose. */
  editor: (): string => process.env.VISUAL || process.env.EDITOR || 'vi',
};

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
