import { createHash } from 'node:crypto';
import path from 'node:path';
import { findTool } from '../tools/index';
import type { KnownFile, ToolResult } from '../tools/types';
import { isWriteTemp } from './safe-write';
import { createWorkspace, fingerprint as contentFingerprint } from './tool-deps';

const SHELL_UNKNOWN =
  'Outcome unknown: the previous attempt was interrupted (the worker stopped while the command ran). ' +
  'It was not run again. Check its effects before deciding whether to run it again.';

/**
 * What a `write_file` or `replace` call's target looks like before it runs, journaled with its
 * `started` mark: a later attempt compares it with the file to tell "not written yet" from
 * "already written", which the new text alone cannot when it contains the old one.
 */
export async function fingerprintTarget(
  name: string,
  args: Record<string, unknown>,
  workspaceRoot: string,
): Promise<string | undefined> {
  if (!findTool(name)?.editsFiles || typeof args.file_path !== 'string') return undefined;
  return fingerprint(await currentText(workspaceRoot, args.file_path));
}

/**
 * What to answer for a mutating call whose earlier attempt started but never finished, instead of
 * running it again blindly (invariant 7). A shell command's effects cannot be checked, so the model
 * is told the outcome is unknown; `write_file` and `replace` check whether their result is already
 * in place (`before`: the target's fingerprint when the call first started, when known).
 * Undefined means: not in place, safe to run.
 */
export async function resumeInterrupted(
  name: string,
  args: Record<string, unknown>,
  workspaceRoot: string,
  before?: string,
): Promise<ToolResult | undefined> {
  if (findTool(name)?.kind === 'execute')
    return { ok: false, error: { kind: 'outcome_unknown', message: SHELL_UNKNOWN } };
  if (!findTool(name)?.editsFiles) return undefined;
  await removeWriteTemps(workspaceRoot, String(args.file_path ?? ''));
  const current = await currentText(workspaceRoot, String(args.file_path ?? ''));
  if (current === undefined || (before !== undefined && fingerprint(current) === before)) return undefined;
  if (name === 'write_file' && current === args.content) {
    return {
      ok: true,
      output: `${args.file_path} already holds this content: an interrupted earlier attempt had written it.`,
      known: await knownNow(workspaceRoot, String(args.file_path)),
    };
  }
  if (
    name === 'write_file' &&
    before === ABSENT &&
    typeof args.content === 'string' &&
    args.content.startsWith(current)
  ) {
    // The earlier attempt created the file and stopped mid-write: what is there is its own partial
    // text. Removing it first makes the new run answer as the uninterrupted call would have (created).
    await removePartial(workspaceRoot, String(args.file_path));
    return undefined;
  }
  const { old_string: oldText, new_string: newText } = args as { old_string?: string; new_string?: string };
  // Without a fingerprint, a file that still holds the old text counts as not yet changed.
  const changed = before !== undefined || !oldText || !current.includes(oldText);
  if (name === 'replace' && typeof newText === 'string' && newText !== '' && current.includes(newText) && changed) {
    return {
      ok: true,
      output: `The replacement in ${args.file_path} is already in place: an interrupted earlier attempt had made it.`,
      known: await knownNow(workspaceRoot, String(args.file_path)),
    };
  }
  return undefined;
}

const ABSENT = 'absent';

function fingerprint(text: string | undefined): string {
  return text === undefined ? ABSENT : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The file as an edit found already made leaves it, for the prompt's memory of what the model has seen. */
async function knownNow(root: string, filePath: string): Promise<KnownFile | undefined> {
  try {
    const workspace = await createWorkspace(root);
    const file = await workspace.resolve(filePath);
    return { path: workspace.relative(file), fingerprint: contentFingerprint(await workspace.readFile(file)) };
  } catch {
    return undefined;
  }
}

async function removePartial(root: string, filePath: string): Promise<void> {
  const workspace = await createWorkspace(root);
  await workspace.removeFile(await workspace.resolve(filePath));
}

/** The temporary file a write killed before its rename leaves beside the target (see safe-write). */
async function removeWriteTemps(root: string, filePath: string): Promise<void> {
  try {
    const workspace = await createWorkspace(root);
    const file = await workspace.resolve(filePath);
    const [dir, name] = [path.dirname(file), path.basename(file)];
    for (const entry of await workspace.readdir(dir)) {
      if (isWriteTemp(name, entry.name)) await workspace.removeFile(path.join(dir, entry.name));
    }
  } catch {
    // Best effort: the directory may not exist, and a leftover is only clutter.
  }
}

async function currentText(root: string, filePath: string): Promise<string | undefined> {
  try {
    const workspace = await createWorkspace(root);
    const file = await workspace.resolve(filePath);
    return (await workspace.readFile(file)).toString('utf8').replace(/\r\n/g, '\n');
  } catch {
    return undefined;
  }
}
