/**
 * An editor in a test: `durable-agent acp` (the built binary) as a real child process on real
 * stdio, driven by the ACP library's own client. It records every `session/update` and answers
 * `session/request_permission` with whatever the test sets (by default it leaves them open).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientCapabilities,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { BIN, eventually, type Sandbox } from './cli';

export type PermissionAnswer = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<RequestPermissionResponse>;

export type ElicitationAnswer = (
  request: CreateElicitationRequest,
  signal: AbortSignal,
) => Promise<CreateElicitationResponse>;

/** An `elicitation/create` as the editor saw it, and whether the agent withdrew it. */
export interface AskedElicitation {
  request: CreateElicitationRequest;
  withdrawn: boolean;
}

/** A permission request as the editor saw it, and how it ended (`withdrawn`: the agent cancelled it). */
export interface AskedPermission {
  request: RequestPermissionRequest;
  withdrawn: boolean;
}

export interface AcpEditor {
  child: ChildProcessWithoutNullStreams;
  connection: ClientConnection;
  updates: SessionNotification[];
  asked: AskedPermission[];
  /** Replace to answer permission requests; the default waits until the agent withdraws the request. */
  answer: PermissionAnswer;
  /** `elicitation/create` requests (sent only to an editor spawned with the elicitation capability). */
  elicited: AskedElicitation[];
  /** Replace to answer elicitations; the default waits until the agent withdraws the request. */
  elicit: ElicitationAnswer;
  stderr(): string;
  /** Everything the agent wrote to stdout so far (protocol messages only, one JSON object a line). */
  stdout(): string;
  /** The updates of `sessionId` of one kind. */
  updatesOf<K extends SessionUpdate['sessionUpdate']>(
    sessionId: string,
    kind: K,
  ): Extract<SessionUpdate, { sessionUpdate: K }>[];
  /** Writes a raw line to the agent's stdin (for malformed input). */
  writeRaw(line: string): void;
  /** Ends the connection and the child. */
  close(): Promise<void>;
}

const untilWithdrawn: PermissionAnswer = (_request, signal) =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } })));

const untilElicitationWithdrawn: ElicitationAnswer = (_request, signal) =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' })));

/**
 * Spawns `durable-agent acp` in the sandbox with `env` and connects the library's client to it,
 * initialized with `capabilities`.
 */
export async function spawnAcp(
  box: Sandbox,
  env: Record<string, string>,
  args = ['acp'],
  capabilities: ClientCapabilities = {},
): Promise<AcpEditor> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: box.dir, env: box.env(env), stdio: 'pipe' });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const editor = {
    child,
    updates: [] as SessionNotification[],
    asked: [] as AskedPermission[],
    answer: untilWithdrawn,
    elicited: [] as AskedElicitation[],
    elicit: untilElicitationWithdrawn,
  } as AcpEditor;
  const app = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => void editor.updates.push(params))
    .onRequest('session/request_permission', async ({ params, signal }) => {
      const asked = { request: params, withdrawn: false };
      editor.asked.push(asked);
      signal.addEventListener('abort', () => (asked.withdrawn = true));
      return editor.answer(params, signal);
    })
    .onRequest('elicitation/create', async ({ params, signal }) => {
      const asked = { request: params, withdrawn: false };
      editor.elicited.push(asked);
      signal.addEventListener('abort', () => (asked.withdrawn = true));
      return editor.elicit(params, signal);
    });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  Object.assign(editor, {
    connection,
    stderr: () => stderr,
    stdout: () => stdout,
    updatesOf: (sessionId: string, kind: string) =>
      editor.updates.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === kind).map((n) => n.update),
    writeRaw: (line: string) => child.stdin.write(`${line}\n`),
    close: async () => {
      connection.close();
      child.stdin.end();
      if (child.exitCode === null) child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    },
  });
  await connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: capabilities });
  return editor;
}

/** Waits until the editor was asked `count` permission requests in all. */
export function permissionAsked(editor: AcpEditor, count = 1): Promise<AskedPermission> {
  return eventually(() => editor.asked[count - 1], 60_000, `permission request ${count}`);
}

/** All agent message text of a session, chunks joined. */
export function messageText(editor: AcpEditor, sessionId: string): string {
  return editor
    .updatesOf(sessionId, 'agent_message_chunk')
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}
