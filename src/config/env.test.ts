import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from './env';
import { ConfigError } from './errors';

/** No Temporal profile file: the defaults must not depend on the machine running the test. */
const BASE = { TEMPORAL_CONFIG_FILE: path.join(os.tmpdir(), 'durable-agent-no-such-temporal.toml') };

const load = (env: Record<string, string | undefined> = {}) => loadConfig({ ...BASE, ...env });

function configError(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = load();
    expect(config).toMatchObject({
      temporalAddress: '127.0.0.1:7233',
      temporalAddressChosen: false,
      temporalNamespace: 'default',
      taskQueue: 'durable-agent',
      home: path.join(os.homedir(), '.durable-agent'),
      logLevel: 'warn',
      searchPath: '',
    });
    expect(config.geminiApiKey).toBeUndefined();
    expect(config.geminiBaseUrl).toBeUndefined();
    expect(config.temporalCliPath).toBeUndefined();
    expect(config.trustWorkspace).toBe(false);
  });

  it('says whether DURABLE_AGENT_LOG_LEVEL was set, an empty value counting as unset', () => {
    expect(load().logLevelSet).toBe(false);
    expect(load({ DURABLE_AGENT_LOG_LEVEL: '' }).logLevelSet).toBe(false);
    expect(load({ DURABLE_AGENT_LOG_LEVEL: 'warn' })).toMatchObject({ logLevel: 'warn', logLevelSet: true });
  });

  it('reads DURABLE_AGENT_TRUST_WORKSPACE as a boolean', () => {
    expect(load({ DURABLE_AGENT_TRUST_WORKSPACE: '1' }).trustWorkspace).toBe(true);
    expect(load({ DURABLE_AGENT_TRUST_WORKSPACE: 'TRUE' }).trustWorkspace).toBe(true);
    expect(load({ DURABLE_AGENT_TRUST_WORKSPACE: '0' }).trustWorkspace).toBe(false);
    expect(() => load({ DURABLE_AGENT_TRUST_WORKSPACE: 'yes' })).toThrow(
      /DURABLE_AGENT_TRUST_WORKSPACE must be 1, 0, true or false/,
    );
  });

  it('honours each variable', () => {
    const config = load({
      GEMINI_API_KEY: 'key-123',
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:8080',
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_NAMESPACE: 'agents',
      DURABLE_AGENT_HOME: '/srv/agent-home',
      DURABLE_AGENT_TASK_QUEUE: 'my-queue',
      DURABLE_AGENT_LOG_LEVEL: 'debug',
      TEMPORAL_CLI_PATH: '/opt/temporal',
      PATH: '/usr/bin:/bin',
    });
    expect(config).toMatchObject({
      geminiApiKey: 'key-123',
      geminiBaseUrl: 'http://127.0.0.1:8080',
      temporalAddress: 'temporal.example:7233',
      temporalAddressChosen: true,
      temporalNamespace: 'agents',
      home: '/srv/agent-home',
      taskQueue: 'my-queue',
      logLevel: 'debug',
      temporalCliPath: '/opt/temporal',
      searchPath: '/usr/bin:/bin',
    });
  });

  it('makes a relative home absolute', () => {
    expect(load({ DURABLE_AGENT_HOME: 'rel/home' }).home).toBe(path.resolve('rel/home'));
  });

  it('passes Temporal environment configuration through to the connection', () => {
    const config = load({ TEMPORAL_ADDRESS: 'cloud.example:7233', TEMPORAL_API_KEY: 'temporal-key' });
    expect(config.temporalConnection).toMatchObject({ address: 'cloud.example:7233', apiKey: 'temporal-key' });
  });

  it('names the variable when GOOGLE_GEMINI_BASE_URL is not a URL', () => {
    expect(configError({ GOOGLE_GEMINI_BASE_URL: 'not a url' }).message).toContain('GOOGLE_GEMINI_BASE_URL');
  });

  it('names the variable when DURABLE_AGENT_LOG_LEVEL is not a level', () => {
    expect(configError({ DURABLE_AGENT_LOG_LEVEL: 'loud' }).message).toContain('DURABLE_AGENT_LOG_LEVEL');
  });

  it(
    'takes DURABLE_AGENT_STICKY_TIMEOUT_MS as milliseconds, and names it when it is not a whole number of at ' +
      'least 100',
    () => {
      expect(load().stickyTimeoutMs).toBeUndefined();
      expect(load({ DURABLE_AGENT_STICKY_TIMEOUT_MS: '1500' }).stickyTimeoutMs).toBe(1500);
      for (const bad of ['soon', '1.5', '50', '-1'])
        expect(configError({ DURABLE_AGENT_STICKY_TIMEOUT_MS: bad }).message).toContain(
          'DURABLE_AGENT_STICKY_TIMEOUT_MS',
        );
    },
  );

  it('takes DURABLE_AGENT_WORKFLOW_HEAP_MB as MiB, and names it when it is not a whole number of at least 256', () => {
    expect(load().workflowHeapMiB).toBeUndefined();
    expect(load({ DURABLE_AGENT_WORKFLOW_HEAP_MB: '700' }).workflowHeapMiB).toBe(700);
    for (const bad of ['big', '400.5', '100', '-1'])
      expect(configError({ DURABLE_AGENT_WORKFLOW_HEAP_MB: bad }).message).toContain('DURABLE_AGENT_WORKFLOW_HEAP_MB');
  });

  it('treats empty strings as unset', () => {
    const empty = load({
      GEMINI_API_KEY: '',
      GOOGLE_GEMINI_BASE_URL: '',
      DURABLE_AGENT_HOME: '',
      DURABLE_AGENT_TASK_QUEUE: '',
      DURABLE_AGENT_LOG_LEVEL: '',
      TEMPORAL_CLI_PATH: '',
    });
    expect(empty).toEqual(load());
  });

  // env.ts hands the blanked environment to loadClientConnectConfig too, so '' never wins over a default.
  it('treats empty TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE as unset', () => {
    const empty = load({ TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '' });
    expect(empty.temporalAddress).toBe('127.0.0.1:7233');
    expect(empty.temporalNamespace).toBe('default');
  });

  it('takes DURABLE_AGENT_STORE as "file" or a postgres:// URL, and names it when it is neither', () => {
    expect(load({ DURABLE_AGENT_STORE: 'file' }).storeUrl).toBeUndefined();
    expect(load({ DURABLE_AGENT_STORE: 'postgres://u:p@db:5432/agent' }).storeUrl).toBe('postgres://u:p@db:5432/agent');
    expect(() => load({ DURABLE_AGENT_STORE: 'mysql://db' })).toThrow(/DURABLE_AGENT_STORE/);
  });

  it("carries the worker's variables, which their flags override where they are used", () => {
    const config = load({
      DURABLE_AGENT_METRICS: '127.0.0.1:9464',
      DURABLE_AGENT_DEPLOYMENT: 'agents',
      DURABLE_AGENT_BUILD_ID: 'v1',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_SERVICE_NAME: 'not ours',
    });
    expect(config.metricsAddress).toBe('127.0.0.1:9464');
    expect(config.deployment).toEqual({ deployment: 'agents', buildId: 'v1' });
    expect(config.otel).toEqual({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(load().spareAllowed).toBe(true);
    expect(load({ DURABLE_AGENT_SPARE: '0' }).spareAllowed).toBe(false);
    expect(configError({ DURABLE_AGENT_SPARE: 'no' }).message).toMatch(/DURABLE_AGENT_SPARE must be 0/);
  });
});

describe('GEMINI_SYSTEM_MD and GEMINI_WRITE_SYSTEM_MD, read as Gemini CLI reads them', () => {
  const cwd = path.join(os.tmpdir(), 'project');
  const systemMd = (value: string | undefined) =>
    loadConfig({ ...BASE, GEMINI_SYSTEM_MD: value, GEMINI_WRITE_SYSTEM_MD: value }, cwd).systemMd;

  it('is off when unset, blank, 0 or false', () => {
    for (const value of [undefined, '', '  ', '0', 'false', 'FALSE']) expect(systemMd(value)).toEqual({});
  });

  it('1 or true is .gemini/system.md under the current directory', () => {
    const file = path.join(cwd, '.gemini', 'system.md');
    for (const value of ['1', 'true', ' True ']) expect(systemMd(value)).toEqual({ replace: file, write: file });
  });

  it('anything else is a path: ~ is the home directory, relative paths start at the current directory', () => {
    expect(systemMd('~/prompts/sys.md').replace).toBe(path.join(os.homedir(), 'prompts', 'sys.md'));
    expect(systemMd('prompts/sys.md').write).toBe(path.join(cwd, 'prompts', 'sys.md'));
    expect(systemMd('/etc/sys.md').replace).toBe(path.resolve('/etc/sys.md'));
  });
});
