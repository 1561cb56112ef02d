'use strict';
// The client half of the spare process (docs/decisions.md, "Warm start"): hands one command to an
// idle process that has already loaded the CLI, over a Unix socket in the agent's home. Anything
// that goes wrong before the spare's hello runs the command here instead, as if there were no spare.
const { Buffer } = require('node:buffer');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const LOCAL_ONLY = ['-h', '--help', '-V', '--version'];
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** `run`, and options before any command (which mean `run`); a terminal on both ends keeps its dialogs here. */
function handedOver(argv, env) {
  const first = argv[2];
  if (env.DURABLE_AGENT_SPARE === '0' || first === undefined) return false;
  if (first !== 'run' && !(first.startsWith('-') && !LOCAL_ONLY.includes(first))) return false;
  return !(process.stdin.isTTY && process.stdout.isTTY);
}

exports.runCommand = function runCommand(argv, inProcess) {
  const env = process.env;
  if (!handedOver(argv, env)) return inProcess();
  const home = path.resolve(env.DURABLE_AGENT_HOME || path.join(os.homedir(), '.durable-agent'));
  const socket = net.createConnection(path.join(home, 'spare.sock'));
  let state = 'connecting';
  let exit;
  const send = (frame) => socket.write(`${JSON.stringify(frame)}\n`);
  const forward = (signal) => () => send({ t: 'sig', s: signal });
  const handlers = SIGNALS.map((s) => [s, forward(s)]);
  const fallBack = () => {
    state = 'local';
    socket.destroy();
    inProcess();
  };
  socket.on('error', () => state === 'connecting' && fallBack());
  socket.on('close', () => {
    if (state === 'connecting') return fallBack();
    if (state === 'local') return;
    if (!exit) process.stderr.write('durable-agent: the spare process ended without an exit status\n');
    finish(exit || { code: 1 }, handlers);
  });
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString('utf8');
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const frame = JSON.parse(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      if (frame.t === 'hello') {
        state = 'served';
        for (const [signal, handler] of handlers) process.on(signal, handler);
        if (env.DURABLE_AGENT_SPARE_DEBUG === '1')
          process.stderr.write(`durable-agent: served by spare process ${frame.pid}\n`);
        send(request(argv, env));
      } else if (frame.t === 'out') process.stdout.write(Buffer.from(frame.d, 'base64'));
      else if (frame.t === 'err') process.stderr.write(Buffer.from(frame.d, 'base64'));
      else if (frame.t === 'read') forwardStdin(send);
      else if (frame.t === 'exit') exit = frame;
    }
  });
};

function request(argv, env) {
  const tty = { stdin: !!process.stdin.isTTY, stdout: !!process.stdout.isTTY, stderr: !!process.stderr.isTTY };
  return { t: 'run', argv, cwd: process.cwd(), env, tty, columns: process.stdout.columns };
}

/** Standard input is read only once the command reads it, as it would be here. */
function forwardStdin(send) {
  process.stdin.on('data', (d) => send({ t: 'in', d: d.toString('base64') }));
  process.stdin.on('end', () => send({ t: 'eof' }));
  process.stdin.on('error', () => send({ t: 'eof' }));
}

/** Exits as the command did: with its code, or killed by the signal that would have killed it here. */
function finish(exit, handlers) {
  for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  if (exit.signal) return process.kill(process.pid, exit.signal);
  process.stdout.write('', () => process.stderr.write('', () => process.exit(exit.code)));
}
