/**
 * The two small Node programs behind `ProcessRunner` (run with `node -e`, so they work the same
 * from the compiled CLI and from the TypeScript sources under jest).
 *
 * The launcher is started by the worker with an empty environment; it starts the spawner
 * detached (a session of its own), hands it its fd 3 (a socket to the worker; not stdin, which
 * Node closes when the launcher exits) and its stderr, and exits, so
 * the spawner's parent becomes init or the nearest subreaper. Commands and hooks are children of
 * the spawner: reading `/proc/$PPID/environ` and up from them never reaches the worker, whose
 * initial environment holds the API key.
 */
export const LAUNCHER_PROGRAM = `'use strict';
require('node:child_process')
  .spawn(process.execPath, ['-e', process.argv[1]], { detached: true, stdio: ['ignore', 'ignore', 2, 3], cwd: '/', \
env: {} })
  .unref();
`;

/**
 * The spawner reads JSON lines on fd 3: `{op:'run', id, argv, cwd, env, stdin?, interactive?, record?,
 * timeoutMs?, killGraceMs, drainMs?}`, `{op:'in', id, data}`, `{op:'eof', id}` and `{op:'stop', id}`,
 * and writes JSON lines `{id, ev:'started', pid}`, `{id, ev:'out', fd, data}`, `{id, ev:'done', code,
 * signal, timedOut, error?}` on the same socket.
 * Each command runs in a process group of its own. At its timeout (none: no limit), or on `stop`, the
 * group gets SIGTERM, then SIGKILL after the grace period. `done` comes when the command's pipes
 * close, or `drainMs` after it exits (a background process may hold them open). An interactive
 * process (an MCP server) keeps its stdin open for `in` and `eof`. With `record`, the command leaves
 * `<record>.running` while it runs and `<record>.json` (its outcome and output) when done, for a
 * worker that takes over from one that died meanwhile.
 * When the worker goes away (the socket ends), running commands keep their deadlines, as a command of a
 * crashed worker always has: it is neither cut short nor left running past its timeout. Interactive
 * processes served only the worker, so they are stopped. The spawner exits once the last one has ended.
 */
export const SPAWNER_PROGRAM = `'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const jobs = new Map();
const channel = new (require('node:net').Socket)({ fd: 3, readable: true, writable: true });
const send = (message) => channel.write(JSON.stringify(message) + '\\n');
channel.on('error', () => undefined);

/** Output kept in a record; a command's whole output, unless it is huge. */
const RECORD_CAP = 8 * 1024 * 1024;
function writeOnce(file, text) {
  try { fs.writeFileSync(file, text, { flag: 'wx', mode: 0o600 }); } catch { /* a record is best effort */ }
}

function groupStopper(pid, graceMs) {
  let started = false;
  const signal = (name) => {
    try { process.kill(-pid, name); } catch { /* the group is gone */ }
  };
  return () => {
    if (started || pid === undefined) return;
    started = true;
    signal('SIGTERM');
    setTimeout(() => signal('SIGKILL'), graceMs);
  };
}

function run(req) {
  const stdio = [req.stdin === undefined && !req.interactive ? 'ignore' : 'pipe', 'pipe', 'pipe'];
  let child;
  try {
    child = spawn(req.argv[0], req.argv.slice(1), { cwd: req.cwd, env: req.env, detached: true, stdio });
  } catch (error) {
    send({ id: req.id, ev: 'done', code: null, signal: null, timedOut: false, error: String(error.message) });
    return;
  }
  const stop = groupStopper(child.pid, req.killGraceMs);
  const job = { stop, stdin: child.stdin, interactive: req.interactive, timedOut: false, timers: [], code: null, \
signal: null };
  jobs.set(req.id, job);
  if (child.pid !== undefined) send({ id: req.id, ev: 'started', pid: child.pid });
  const record = req.record === undefined ? undefined : { base: req.record, output: '' };
  if (record) writeOnce(record.base + '.running', JSON.stringify({ spawner: process.pid, pid: child.pid }));
  const keep = (data) => { if (record && record.output.length < RECORD_CAP) record.output += data; };
  if (req.timeoutMs !== undefined) job.timers.push(setTimeout(() => { job.timedOut = true; job.stop(); }, req.timeoutMs));
  const finish = (error) => {
    if (jobs.get(req.id) !== job) return;
    jobs.delete(req.id);
    job.timers.forEach(clearTimeout);
    child.stdout.destroy();
    child.stderr.destroy();
    const outcome = { code: job.code, signal: job.signal, timedOut: job.timedOut, error };
    if (record) {
      writeOnce(record.base + '.json', JSON.stringify({ ...outcome, pid: child.pid, output: record.output }));
      try { fs.unlinkSync(record.base + '.running'); } catch { /* gone */ }
    }
    send({ id: req.id, ev: 'done', ...outcome });
  };
  child.stdout.setEncoding('utf8').on('data', (data) => (keep(data), send({ id: req.id, ev: 'out', fd: 1, data })));
  child.stderr.setEncoding('utf8').on('data', (data) => (keep(data), send({ id: req.id, ev: 'out', fd: 2, data })));
  if (child.stdin) {
    child.stdin.on('error', () => undefined);
    if (!req.interactive) child.stdin.end(req.stdin);
  }
  child.on('error', (error) => finish(String(error.message)));
  child.on('exit', (code, signal) => {
    Object.assign(job, { code, signal });
    if (req.drainMs !== undefined) job.timers.push(setTimeout(() => finish(), req.drainMs));
  });
  child.on('close', () => finish());
}

let buffered = '';
channel.setEncoding('utf8').on('data', (chunk) => {
  const lines = (buffered + chunk).split('\\n');
  buffered = lines.pop();
  for (const line of lines) {
    if (line === '') continue;
    const message = JSON.parse(line);
    const job = jobs.get(message.id);
    if (message.op === 'run') run(message);
    else if (message.op === 'stop') job?.stop();
    else if (message.op === 'in') job?.stdin?.write(message.data);
    else if (message.op === 'eof') job?.stdin?.end();
  }
});
channel.on('close', () => {
  for (const job of jobs.values()) if (job.interactive) (job.stdin.end(), job.stop());
});
`;
