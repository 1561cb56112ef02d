import type { z } from 'zod';
import type { ToolFacts, ToolReach } from './facts';
import type { Grounding } from './web-text';

/**
 * What a tool may touch. Tools reach the outside world only through these dependencies, so a tool
 * module has no I/O imports and its schema can be imported anywhere, the workflow bundle included.
 */
export interface ToolDeps {
  /** The workspace every path argument is confined to (invariant 6). */
  workspace: Workspace;
  /** Runs a command with `bash -c` in its own process group. */
  exec(options: ExecOptions): Promise<ExecResult>;
  /** Aborted when the activity is cancelled or its worker shuts down. */
  signal: AbortSignal;
  /**
   * Reads a blob of the transcript store (full texts of shortened or masked tool outputs); undefined
   * when the store holds no such blob, so a mistyped reference stays the model's problem.
   */
  readBlob?(ref: string): Promise<string | undefined>;
  /** Limits set by configuration, never by the model; tools fall back to Gemini CLI's defaults. */
  limits?: ToolLimits;
  /**
   * A line matcher for `search`, run where a runaway regular expression can be stopped (a worker
   * thread): each `match` rejects with a `ToolError` of kind `search_timeout` after `timeoutMs`.
   */
  lineMatcher(search: LineSearch, timeoutMs: number): LineMatcher;
  /** Fingerprint of file content: its bytes, or text as written (UTF-8). */
  fingerprint(content: Uint8Array | string): string;
  /**
   * Fingerprints of the files as the model last saw them (read, or written by its own edits), by
   * workspace-relative path. An edit refuses a file listed here whose content on disk differs.
   */
  knownFiles?: Readonly<Record<string, string>>;
  /** The user-level context file (`<home>/GEMINI.md`), outside the workspace; absent on a worker without a home. */
  userMemory?: { addFact(fact: string): Promise<string> };
  /** The web, for `web_fetch` and `google_web_search`; absent where the worker has no model client. */
  web?: WebAccess;
  /** This worker's background shell commands (`is_background`); absent where none may run. */
  background?: BackgroundShells;
}

/** What the web tools may do: ask the model (grounded on URLs or on Google Search) and fetch pages. */
export interface WebAccess {
  /**
   * One `generateContent` call of the web tools' model. A failure the model's API may recover from
   * is thrown as is (Temporal retries the activity); the last attempt's, or a final one, is a `ToolError`.
   */
  ask(request: { text: string; grounding?: 'urlContext' | 'googleSearch'; timeoutMs?: number }): Promise<WebAnswer>;
  /** The page as text (HTML reduced to its text), or an `Error` saying why not. */
  fetchText(url: string): Promise<string>;
  /** Private, loopback and local hosts, unless the settings allow them (`webFetch.allowPrivateAddresses`). */
  isBlocked(url: string): Promise<boolean>;
  /** Counts a request to the URL's host: false when it already had its share this minute. */
  takeRateSlot(url: string): boolean;
}

export interface WebAnswer {
  text: string;
  grounding?: Grounding;
}

/**
 * A background shell command as the tools report it; `lost`: its worker died, `elsewhere`: another
 * live worker of the host has it.
 */
export interface BackgroundProcess {
  pid: number;
  command: string;
  workspace: string;
  status: 'running' | 'exited' | 'lost' | 'elsewhere';
  exitCode?: number | null;
  signal?: string;
}

export interface BackgroundShells {
  start(command: string, cwd: string, workspace: string): Promise<number>;
  list(workspace: string): Promise<BackgroundProcess[]>;
  read(pid: number, workspace: string): Promise<{ process: BackgroundProcess; output?: string } | undefined>;
}

/** A JavaScript regular expression to find in lines, and one whose matches are left out. */
export interface LineSearch {
  pattern: string;
  exclude?: string;
  flags: string;
}

export interface LineMatcher {
  /**
   * 0-based indices of the lines of `text` (split on `\n`, a trailing `\r` dropped) that match the
   * pattern and not the exclusion, at most `max` of them.
   */
  match(text: string, max: number): Promise<number[]>;
  close(): Promise<void>;
}

export interface ToolLimits {
  /** Wall-clock limit for one `run_shell_command`, after which its process group is killed. */
  shellTimeoutMs?: number;
  /** Characters of tool output the model sees before the middle is cut (20% head, 80% tail). */
  maxOutputChars?: number;
  /** Time `grep_search` may spend matching one file before it gives up on the pattern. */
  grepTimeoutMs?: number;
}

/** Every path is resolved (symlinks included) and refused unless it stays under `root`. */
export interface Workspace {
  /** Real, absolute path of the workspace root. */
  readonly root: string;
  /**
   * Resolves a path given by the model (absolute, or relative to the root) to a real absolute path
   * inside the workspace; the target need not exist (its nearest existing ancestor is resolved).
   * Throws a `ToolError` of kind `path_outside_workspace` otherwise.
   */
  resolve(path: string): Promise<string>;
  /** Path relative to the root, with `/` separators, for messages to the model. */
  relative(absolutePath: string): string;
  readFile(absolutePath: string): Promise<Buffer>;
  writeFile(absolutePath: string, content: string): Promise<void>;
  /** Removes a regular file; a symlink at its name is refused, not followed. */
  removeFile(absolutePath: string): Promise<void>;
  stat(absolutePath: string): Promise<FileInfo | undefined>;
  readdir(absolutePath: string): Promise<DirEntry[]>;
  /** Files (not directories) under `dir`, relative to it, skipping `.git` and `node_modules`. */
  walk(dir: string, options?: { limit?: number }): Promise<string[]>;
}

export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  isDirectory: boolean;
  size: number;
}

export interface ExecOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Output beyond this many characters is dropped from the middle (head and tail kept). */
  maxOutputChars: number;
  signal?: AbortSignal;
  /** Where the outcome is kept for a worker that takes over should this one die (see command-records). */
  record?: string;
}

export interface ExecResult {
  output: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  pid?: number;
}

/** Closed set of error kinds a tool reports back to the model (it can correct itself from them). */
export type ToolErrorKind =
  | 'invalid_tool_params'
  | 'tool_not_registered'
  | 'path_outside_workspace'
  | 'file_not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'file_too_large'
  | 'attempt_to_create_existing_file'
  | 'edit_no_occurrence_found'
  | 'edit_expected_occurrence_mismatch'
  | 'edit_no_change'
  | 'edit_no_change_llm_judgement'
  | 'file_changed_since_read'
  | 'shell_timeout'
  | 'search_timeout'
  | 'shell_failed'
  | 'web_fetch_failed'
  | 'web_search_failed'
  | 'policy_violation'
  | 'cancelled'
  | 'outcome_unknown'
  | 'execution_failed';

/** Thrown inside tools for expected failures; becomes `{ ok: false, error }` at the activity edge. */
export class ToolError extends Error {
  constructor(
    readonly kind: ToolErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** A file's content as the model now knows it: the workflow remembers it for later edits. */
export interface KnownFile {
  /** Workspace-relative, `/`-separated. */
  path: string;
  fingerprint: string;
}

/** A file's bytes the model receives as inline data (an image, a PDF, audio), base64-encoded. */
export interface ToolMedia {
  mimeType: string;
  base64: string;
  /** Workspace-relative path of the file. */
  path: string;
}

/** What the model sees: `output` on success (and `media`, sent as inline data), `error.message` on failure. */
export type ToolResult =
  | { ok: true; output: string; display?: string; known?: KnownFile; media?: ToolMedia }
  | { ok: false; error: { kind: ToolErrorKind; message: string } };

export { isReadOnly, type ToolKind } from './facts';

interface ToolShape<S extends z.ZodType> extends ToolFacts {
  name: string;
  description: string;
  parameters: S;
}

/** A tool the `runTool` activity executes: it acts on the world through `deps`. */
export interface ActivityTool<S extends z.ZodType = z.ZodType> extends ToolShape<S> {
  runsIn?: 'activity';
  /**
   * What it acts on. Every activity tool runs on the queue of the prompt's host (the workspace, its
   * processes, and the network and home directory of the machine the person works on); read-only
   * tools that reach only the workspace may run as local activities there.
   */
  reach: ToolReach;
  execute(args: z.infer<S>, deps: ToolDeps): Promise<ToolResult>;
}

/**
 * A tool the workflow carries out itself, because it changes the prompt, not the world (plan mode,
 * `complete_task`, `invoke_agent`): it is declared to the model and its arguments are parsed like
 * any other, but it has nothing to execute in an activity.
 */
export interface WorkflowTool<S extends z.ZodType = z.ZodType> extends ToolShape<S> {
  runsIn: 'workflow';
}

export type ToolDefinition<S extends z.ZodType = z.ZodType> = ActivityTool<S> | WorkflowTool<S>;

/** Gemini's `FunctionDeclaration`, with the parameters as plain JSON Schema. */
export interface FunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: Record<string, unknown>;
}
