import type * as net from 'node:net';
import { Readable } from 'node:stream';
import { setLogDestination } from '../logger';
import { EXIT } from './exit-codes';
import { adoptEnvironment } from '../config/env';

/** What bin/spare-client.js sends first: the command and the process it would have run in. */
interface CommandRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  tty: { stdin: boolean; stdout: boolean; stderr: boolean };
  columns?: number;
}

type Frame = Record<string, unknown> & { t: string };
type Main = (argv: string[]) => Promise<void>;

/** Larger frames are refused: a prompt that big is refused by the payload check anyway. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** Node's own exit, kept before `become` replaces `process.exit` with one that reports over the socket. */
const realExit = process.exit.bind(process);
/** The status this process is ending with, once its exit frame is on its way. */
let ending: number | undefined;

/**
 * Serves one command on an accepted connection: says hello, takes the request, becomes the command's
 * process and runs `main`. The client gone (its socket closed) ends this process at once, cancelling
 * nothing, as a SIGKILLed `run` would.
 */
export function serveOneCommand(socket: net.Socket, main: Main): void {
  const send = (frame: Frame) => socket.write(`${JSON.stringify(frame)}\n`);
  const stdin = new ForwardedStdin(() => send({ t: 'read' }));
  let started = false;
  socket.on('close', () => realExit(ending ?? EXIT.error));
  socket.on('error', () => undefined);
  readFrames(
    socket,
    (frame) => {
      if (!started) {
        started = true;
        take(frame, { socket, send, stdin, main });
      } else if (frame.t === 'in' && typeof frame.d === 'string') stdin.push(Buffer.from(frame.d, 'base64'));
      else if (frame.t === 'eof') stdin.push(null);
      else if (frame.t === 'sig' && SIGNALS.includes(frame.s as string))
        deliver(frame.s as NodeJS.Signals, send, socket);
    },
    (problem) => (started ? socket.destroy() : refuse(socket, send, problem)),
  );
  send({ t: 'hello', pid: process.pid });
}

/** The first frame: a valid request makes this process the command's; anything else is refused. */
function take(
  frame: Frame,
  ctx: { socket: net.Socket; send: (f: Frame) => void; stdin: ForwardedStdin; main: Main },
): void {
  const request = checkedRequest(frame);
  if (typeof request === 'string') return refuse(ctx.socket, ctx.send, request);
  try {
    become(request, ctx.socket, ctx.send, ctx.stdin);
  } catch (err) {
    return refuse(ctx.socket, ctx.send, `cannot run in ${request.cwd}: ${(err as Error).message}`);
  }
  void ctx.main(request.argv);
}

function checkedRequest(frame: Frame): CommandRequest | string {
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (frame.t !== 'run') return `expected a "run" request first, got ${JSON.stringify(frame.t)}`;
  if (!strings(frame.argv) || (frame.argv as string[]).length < 2) return 'argv must be a list of strings';
  if (typeof frame.cwd !== 'string') return 'cwd must be a string';
  const env = frame.env;
  if (typeof env !== 'object' || env === null || !Object.values(env).every((v) => typeof v === 'string'))
    return 'env must map names to strings';
  const tty = (frame.tty ?? {}) as Record<string, unknown>;
  const columns = typeof frame.columns === 'number' ? frame.columns : undefined;
  const flags = { stdin: tty.stdin === true, stdout: tty.stdout === true, stderr: tty.stderr === true };
  return { argv: frame.argv as string[], cwd: frame.cwd, env: env as Record<string, string>, tty: flags, columns };
}

/** A bad request: a clear message to the client and to the owner's log, then this spare is done. */
function refuse(socket: net.Socket, send: (f: Frame) => void, problem: string): void {
  const message = `durable-agent: spare process: malformed request: ${problem}\n`;
  process.stderr.write(message);
  send({ t: 'err', d: Buffer.from(message).toString('base64') });
  endWith(socket, { t: 'exit', code: EXIT.input }, EXIT.input);
}

/** This process takes the client's place: cwd, environment, argv, TTY flags, streams and exit. */
function become(request: CommandRequest, socket: net.Socket, send: (f: Frame) => void, stdin: ForwardedStdin): void {
  process.chdir(request.cwd);
  adoptEnvironment(request.env);
  process.argv = request.argv;
  stdin.isTTY = request.tty.stdin;
  Object.defineProperty(process, 'stdin', { value: stdin, configurable: true, writable: true });
  forwardWrites(process.stdout, 'out', request.tty.stdout, send);
  forwardWrites(process.stderr, 'err', request.tty.stderr, send);
  if (request.columns !== undefined) Object.assign(process.stdout, { columns: request.columns });
  setLogDestination({ write: (line: string) => process.stderr.write(line) });
  const exit = (code?: number | string | null) => {
    const status = Number(code ?? process.exitCode ?? 0);
    if (ending !== undefined) return undefined as never;
    ending = status;
    endWith(socket, { t: 'exit', code: status }, status);
    return undefined as never;
  };
  process.exit = exit;
  const crash = (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    exit(EXIT.error);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
}

function forwardWrites(stream: NodeJS.WriteStream, t: 'out' | 'err', isTTY: boolean, send: (f: Frame) => void): void {
  Object.assign(stream, { isTTY });
  stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
    const cb = typeof encoding === 'function' ? encoding : callback;
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk);
    if (bytes.length > 0) send({ t, d: bytes.toString('base64') });
    if (typeof cb === 'function') process.nextTick(cb as () => void);
    return true;
  }) as typeof stream.write;
}

/** A forwarded signal does what it does to the in-process command; with no handler, it would kill it. */
function deliver(signal: NodeJS.Signals, send: (f: Frame) => void, socket: net.Socket): void {
  if (process.listenerCount(signal) > 0) {
    process.emit(signal, signal);
    return;
  }
  endWith(socket, { t: 'exit', signal }, EXIT.error);
}

/** Sends the last frame (the command's exit), then ends this process with `status` once it is out. */
function endWith(socket: net.Socket, frame: Frame, status: number): void {
  socket.end(`${JSON.stringify(frame)}\n`, () => realExit(status));
}

/** Newline-delimited JSON frames; a line that is not a JSON object is a problem. */
function readFrames(socket: net.Socket, onFrame: (f: Frame) => void, onProblem: (problem: string) => void): void {
  let buffered = '';
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    if (buffered.length > MAX_FRAME_BYTES) return onProblem(`a frame over ${MAX_FRAME_BYTES} bytes`);
    for (let at = buffered.indexOf('\n'); at >= 0 && !socket.destroyed; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      let frame: unknown;
      try {
        frame = JSON.parse(line);
      } catch {
        return onProblem('a line that is not JSON');
      }
      if (typeof frame !== 'object' || frame === null || typeof (frame as Frame).t !== 'string')
        return onProblem('a frame without a type');
      onFrame(frame as Frame);
    }
  });
}

/** Standard input as the client forwards it; asked for only once the command reads it. */
class ForwardedStdin extends Readable {
  isTTY = false;
  private asked = false;

  constructor(private readonly ask: () => void) {
    super();
  }

  override _read(): void {
    if (this.asked) return;
    this.asked = true;
    this.ask();
  }
}
