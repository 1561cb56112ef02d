/**
 * Which file paths configure the agent: anything inside a `.durable-agent` folder of the workspace
 * (policies, settings with their hooks, agents), which a later prompt reads and runs. A write there
 * must be approved in every mode but yolo (see defaults.ts).
 *
 * Pure posix string code, decided on the path as written after lexical normalisation: `.` and `..`
 * are resolved, an absolute path inside the workspace root is made relative to it, and a folder
 * name is compared without case and without trailing dots or spaces, as case-insensitive file
 * systems (macOS, Windows) would open it. A `.durable-agent` folder at any depth counts: trust of a
 * folder covers its subfolders, so a subfolder's configuration applies when it is run as a
 * workspace. Symlinks are resolved later by the tool, which refuses a write that a link carries into
 * or out of a `.durable-agent` folder (`writesConfigThroughLink`), so this verdict holds for the file
 * actually written.
 */

const CONFIG_FOLDER = '.durable-agent';

/** Whether `filePath` (workspace-relative, or absolute) names a file inside a `.durable-agent` folder. */
export function isAgentConfigPath(filePath: unknown, workspaceRoot: string): boolean {
  if (typeof filePath !== 'string') return false;
  return segmentsToCheck(filePath, workspaceRoot).some(isConfigFolder);
}

/**
 * Whether a write to `filePath` lands somewhere else than its spelling says while either names the
 * agent's configuration: `resolved` is the workspace-relative real path the tool would write. A
 * workspace link `cfg -> .durable-agent` (or `.durable-agent/plans -> ../src`) would otherwise make
 * the policy judge one file and the tool write another.
 */
export function writesConfigThroughLink(filePath: string, resolved: string, workspaceRoot: string): boolean {
  if (!isAgentConfigPath(filePath, workspaceRoot) && !isAgentConfigPath(resolved, workspaceRoot)) return false;
  return segmentsToCheck(filePath, workspaceRoot).join('/') !== resolved;
}

function isConfigFolder(segment: string): boolean {
  return segment.replace(/[. ]+$/, '').toLowerCase() === CONFIG_FOLDER;
}

/**
 * The path's segments below the workspace root. A path that climbs out of it, or an absolute path
 * outside it (another spelling of the root through a link, say), keeps every segment it has, so
 * nothing named `.durable-agent` in it goes unseen.
 */
function segmentsToCheck(filePath: string, workspaceRoot: string): string[] {
  const raw = filePath.split('/');
  const resolved = resolve(raw);
  if (!resolved) return raw;
  if (!filePath.startsWith('/')) return resolved;
  const root = resolve(workspaceRoot.split('/')) ?? [];
  const inside = root.every((segment, k) => resolved[k] === segment);
  return inside ? resolved.slice(root.length) : resolved;
}

/** `.` and `..` resolved; undefined when `..` climbs above the start. */
function resolve(segments: string[]): string[] | undefined {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') out.push(segment);
    else if (out.pop() === undefined) return undefined;
  }
  return out;
}
