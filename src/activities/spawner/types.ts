/** One command for the spawner: run `argv` in a process group of its own. */
export interface RunRequest {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to the command's stdin, which is then closed; none: stdin is /dev/null. */
  stdin?: string;
  /** Keeps stdin open for `Interactive.write` (an MCP server); stopped when the worker goes away. */
  interactive?: boolean;
  /** Where the command's outcome is kept should the worker die meanwhile (`<record>.json`). */
  record?: string;
  /** None: no time limit (a background command, an MCP server). */
  timeoutMs?: number;
  /** SIGTERM to SIGKILL, at the timeout or on abort. */
  killGraceMs: number;
  /** After the command exits, how long to wait for pipes held open by what it left running (none: wait for them). */
  drainMs?: number;
}

export interface RunOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The abort signal fired and the group was told to stop. */
  aborted: boolean;
  pid?: number;
  /** The command could not start, or the spawner was lost while it ran. */
  error?: string;
}

export interface RunIo {
  onOutput(fd: 1 | 2, data: string): void;
  /** The process started (its pid), before any output. */
  onStarted?(pid: number): void;
  signal?: AbortSignal;
  /** It does not keep the worker's event loop alive (a background command; always so for `open`). */
  unref?: boolean;
}

/** A process started with `interactive`: its stdin, and its end. */
export interface Interactive {
  write(data: string): void;
  /** Closes its stdin. */
  end(): void;
  stop(): void;
  done: Promise<RunOutcome>;
}

/** Starts commands and hooks away from the worker (see program.ts for why). */
export interface ProcessRunner {
  run(request: RunRequest, io: RunIo): Promise<RunOutcome>;
  /** Starts an interactive process; it does not keep the worker's event loop alive. */
  open(request: RunRequest, io: RunIo): Interactive;
  /** Starts the spawner now rather than on the first command (it takes two Node start-ups). */
  start(): void;
  /** Closes the pipe: the spawner exits once its running commands have ended. */
  close(): void;
}
