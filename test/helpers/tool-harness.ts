/**
 * Real temporary workspaces for the tool tests, and a call path like the agent's: parse the
 * arguments, then execute, with a `ToolError` turned into the error result the model would see.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createToolDeps } from '../../src/activities/tool-deps';
import { parseToolArgs } from '../../src/tools';
import { ToolError, type ToolDeps, type ToolResult } from '../../src/tools/types';

const created: string[] = [];

export interface TestWorkspace {
  root: string;
  deps: ToolDeps;
  /** Writes files (parents created) relative to the root. */
  write(files: Record<string, string | Buffer>): Promise<void>;
  read(relative: string): Promise<string>;
}

export async function makeWorkspace(
  files: Record<string, string | Buffer> = {},
  options: { shellTimeoutMs?: number; maxOutputChars?: number; signal?: AbortSignal } = {},
): Promise<TestWorkspace> {
  const made = await fs.mkdtemp(path.join(os.tmpdir(), 'da-tools-'));
  created.push(made);
  const root = await fs.realpath(made);
  const deps = await createToolDeps({
    root,
    signal: options.signal ?? new AbortController().signal,
    shellTimeoutMs: options.shellTimeoutMs,
    maxOutputChars: options.maxOutputChars,
  });
  const workspace: TestWorkspace = {
    root,
    deps,
    async write(more) {
      for (const [relative, content] of Object.entries(more)) {
        const target = path.join(root, relative);
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.writeFile(target, content);
      }
    },
    read: (relative) => fs.readFile(path.join(root, relative), 'utf8'),
  };
  await workspace.write(files);
  return workspace;
}

/** A directory outside every test workspace, for escape attempts. */
export async function makeOutsideDir(files: Record<string, string> = {}): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'da-outside-')));
  created.push(dir);
  for (const [relative, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await fs.writeFile(path.join(dir, relative), content);
  }
  return dir;
}

/** The `ToolError` a file operation was refused with (fails the test if it succeeded or threw anything else). */
export async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

export async function removeWorkspaces(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
}

export async function callTool(name: string, args: unknown, deps: ToolDeps): Promise<ToolResult> {
  const parsed = parseToolArgs(name, args);
  if (!parsed.ok) return parsed;
  if (parsed.tool.runsIn === 'workflow') throw new Error(`${name} is carried out by the workflow, not by callTool`);
  try {
    return await parsed.tool.execute(parsed.args, deps);
  } catch (error) {
    if (error instanceof ToolError) return { ok: false, error: { kind: error.kind, message: error.message } };
    throw error;
  }
}

/** The output of a successful result; fails the test with the error otherwise. */
export function outputOf(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected success, got ${result.error.kind}: ${result.error.message}`);
  return result.output;
}

export function errorOf(result: ToolResult): { kind: string; message: string } {
  if (result.ok) throw new Error(`expected an error, got output: ${result.output.slice(0, 500)}`);
  return result.error;
}
