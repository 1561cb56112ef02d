/**
 * No Docker engine runs where the tests run, so the deployment files are checked for structure:
 * the start order, pinned images, and that the worker image really runs `durable-agent worker`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_SEARCH_ATTRIBUTES } from '../src/server/dev-server';

const root = path.resolve(__dirname, '..');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  entrypoint?: string[];
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string> | string[];
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
}

const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;

function environment(service: Service): Record<string, string | undefined> {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return env;
  return Object.fromEntries(env.map((entry) => [entry.split('=')[0], entry.split('=')[1]]));
}

/** Host paths a service mounts, relative to the compose file. */
function bindMounts(service: Service): string[] {
  return (service.volumes ?? []).map((v) => v.split(':')[0]).filter((source) => source.startsWith('.'));
}

describe('docker-compose.yml', () => {
  it('has the cluster, the UI and the worker', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['postgresql', 'temporal', 'temporal-admin-tools', 'temporal-create-namespace', 'temporal-ui', 'worker'].sort(),
    );
  });

  it('pins every image, and uses neither latest nor the deprecated auto-setup', () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === 'worker') continue;
      expect(service.image).toMatch(/^[\w./-]+:\d[\w.-]*$/);
      expect(service.image).not.toMatch(/auto-setup|:latest/);
    }
    expect(services.postgresql.image).toMatch(/^postgres:16\b/);
    expect(services.temporal.image).toMatch(/^temporalio\/server:/);
    expect(services['temporal-admin-tools'].image).toMatch(/^temporalio\/admin-tools:/);
    expect(services['temporal-ui'].image).toMatch(/^temporalio\/ui:/);
  });

  it('starts each service only once what it needs is ready', () => {
    const order: Record<string, Record<string, string>> = {
      'temporal-admin-tools': { postgresql: 'service_healthy' },
      temporal: { 'temporal-admin-tools': 'service_completed_successfully' },
      'temporal-create-namespace': { temporal: 'service_healthy' },
      'temporal-ui': { temporal: 'service_healthy' },
      worker: { temporal: 'service_healthy', 'temporal-create-namespace': 'service_completed_successfully' },
    };
    for (const [name, needs] of Object.entries(order)) {
      const conditions = Object.fromEntries(
        Object.entries(services[name].depends_on ?? {}).map(([dep, { condition }]) => [dep, condition]),
      );
      expect(conditions).toEqual(needs);
    }
  });

  it('gives the depended-on services healthchecks', () => {
    expect(services.temporal.healthcheck?.test.join(' ')).toContain('7233');
    expect(services.postgresql.healthcheck?.test.join(' ')).toContain('pg_isready');
  });

  it('points Temporal at PostgreSQL and its dynamic config', () => {
    const env = environment(services.temporal);
    expect(env).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    const configFile = path.basename(env.DYNAMIC_CONFIG_FILE_PATH ?? '');
    expect(fs.existsSync(path.join(root, 'docker', 'dynamicconfig', configFile))).toBe(true);
    expect(services.temporal.ports).toContain('127.0.0.1:7233:7233');
    expect(services['temporal-ui'].ports).toContain('127.0.0.1:8080:8080');
  });

  it('mounts only files that exist, and the one-shot scripts are there', () => {
    for (const service of Object.values(services)) {
      for (const source of bindMounts(service)) expect(fs.existsSync(path.join(root, source))).toBe(true);
    }
    const setup = fs.readFileSync(path.join(root, 'docker', 'scripts', 'setup-postgres.sh'), 'utf8');
    for (const db of ['temporal', 'temporal_visibility']) expect(setup).toContain(`setup_database ${db} `);
    const namespace = fs.readFileSync(path.join(root, 'docker', 'scripts', 'create-namespace.sh'), 'utf8');
    for (const attribute of Object.keys(DEFAULT_SEARCH_ATTRIBUTES)) expect(namespace).toContain(attribute);
  });

  it('builds the worker from the Dockerfile and keeps its home on a volume', () => {
    const worker = services.worker;
    expect(worker.build).toEqual({ context: '.', dockerfile: 'Dockerfile' });
    expect(worker.command).toEqual(['worker']);
    const env = environment(worker);
    expect(env.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect('GEMINI_API_KEY' in env && env.GEMINI_API_KEY === undefined).toBe(true); // passed through from the host
    expect(worker.volumes).toContain(`agent-home:${env.DURABLE_AGENT_HOME}`);
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['agent-home', 'postgres-data']));
  });
});

describe('Dockerfile', () => {
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const instructions = dockerfile.split('\n').filter((line) => /^[A-Z]+ /.test(line));

  it('builds on Node 20 with npm ci and the build script', () => {
    expect(instructions.filter((l) => l.startsWith('FROM ')).every((l) => l.includes('node:20-bookworm-slim'))).toBe(
      true,
    );
    expect(dockerfile).toMatch(/RUN npm ci\b/);
    expect(dockerfile).toMatch(/RUN npm run build\b/);
  });

  it('runs the durable-agent worker', () => {
    expect(instructions).toContain('ENTRYPOINT ["node", "bin/durable-agent.js"]');
    expect(instructions).toContain('CMD ["worker"]');
    expect(fs.existsSync(path.join(root, 'bin', 'durable-agent.js'))).toBe(true);
  });
});
