import * as path from 'node:path';
import { unifiedDiff } from '../../core/diff';
import { countOccurrences, toLf } from '../../tools/edit-text';
import { confirmationOf } from '../../tools/facts';
import { findTool } from '../../tools/index';
import { decodeText, looksBinary } from '../../tools/tool-helpers';
import { createWorkspace } from '../tool-deps';

/** The call a Notification (`ToolPermission`) hook is told about; `mcp` names an MCP tool's server and tool. */
export interface ConfirmationRequest {
  name: string;
  args: Record<string, unknown>;
  mcp?: { server: string; tool: string };
}

/**
 * Gemini CLI's serialized confirmation details for the Notification hook: `type` and `title`, then
 * per type `fileName`, `filePath`, `fileDiff`, `originalContent`, `newContent`, `isModifying`
 * (edit), `command`, `rootCommand` (exec), `serverName`, `toolName`, `toolDisplayName` (mcp),
 * `prompt`, `urls` (info). Edits are read and diffed here, on the worker that holds the workspace.
 */
export async function confirmationDetails(
  workspace: string,
  call: ConfirmationRequest,
): Promise<Record<string, unknown>> {
  const args = call.args;
  if (call.mcp)
    return {
      type: 'mcp',
      title: 'Confirm MCP Tool Execution',
      serverName: call.mcp.server,
      toolName: call.mcp.tool,
      toolDisplayName: call.mcp.tool,
    };
  const shows = confirmationOf(findTool(call.name) ?? { kind: 'other' });
  if (shows === 'exec') {
    const command = text(args.command);
    return { type: 'exec', title: 'Confirm Shell Command', command, rootCommand: rootCommandOf(command) };
  }
  if (shows === 'edit') return editDetails(workspace, call);
  if (call.name === 'web_fetch') {
    const prompt = text(args.prompt);
    return { type: 'info', title: 'Confirm Web Fetch', prompt, urls: prompt.match(/https?:\/\/[^\s"'<>]+/g) ?? [] };
  }
  return { type: 'info', title: `Confirm ${call.name}`, prompt: JSON.stringify(args) };
}

async function editDetails(workspace: string, call: ConfirmationRequest): Promise<Record<string, unknown>> {
  const filePath = text(call.args.file_path);
  const { absolute, original } = await readOriginal(workspace, filePath);
  const newContent = call.name === 'write_file' ? text(call.args.content) : replaced(original, call.args);
  const fileName = path.basename(filePath);
  const fileDiff =
    newContent === undefined
      ? ''
      : unifiedDiff(original ?? '', newContent, { oldLabel: `a/${fileName}`, newLabel: `b/${fileName}` });
  const verb = call.name === 'write_file' ? 'Write' : 'Edit';
  return {
    type: 'edit',
    title: `Confirm ${verb}: ${filePath}`,
    fileName,
    filePath: absolute,
    fileDiff,
    originalContent: original ?? null,
    newContent: newContent ?? '',
    isModifying: false,
  };
}

/** The file as it is now; `undefined` when it does not exist or cannot be shown as text. */
async function readOriginal(root: string, filePath: string): Promise<{ absolute: string; original?: string }> {
  try {
    const workspace = await createWorkspace(root);
    const absolute = await workspace.resolve(filePath);
    const info = await workspace.stat(absolute);
    if (!info?.isFile) return { absolute };
    const bytes = await workspace.readFile(absolute);
    return { absolute, original: looksBinary(bytes) ? undefined : decodeText(bytes) };
  } catch {
    return { absolute: path.resolve(root, filePath) };
  }
}

/** What `replace` would leave, or undefined when it would fail (no match, several without allow_multiple). */
function replaced(original: string | undefined, args: Record<string, unknown>): string | undefined {
  const oldString = toLf(text(args.old_string));
  const newString = toLf(text(args.new_string));
  if (original === undefined) return oldString === '' ? newString : undefined;
  const current = toLf(original);
  const count = countOccurrences(current, oldString);
  if (count === 0 || (count > 1 && args.allow_multiple !== true)) return undefined;
  return current.split(oldString).join(newString);
}

/** The first word of the command, as Gemini CLI's `rootCommand` names it. */
function rootCommandOf(command: string): string {
  return command.trim().split(/[\s;&|()]+/)[0] ?? '';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}
