import { z } from 'zod';
import { checkUnchangedSinceRead, describeCount, notAFile, resolveForWrite } from './tool-helpers';
import { ToolError, type ActivityTool } from './types';

const schema = z.object({
  file_path: z.string().min(1).describe('Path of the file to write, relative to the workspace root or absolute.'),
  content: z
    .string()
    .describe(
      'The whole new content of the file, exactly as it should be saved. No placeholders such as "// rest unchanged".',
    ),
});

export const writeFileTool: ActivityTool<typeof schema> = {
  name: 'write_file',
  kind: 'edit',
  editsFiles: true,
  reach: 'workspace',
  description:
    'Writes content to a file, replacing whatever it held before, and creates any missing parent ' +
    'directories. Suited to new or small files; for a targeted change to an existing file use replace.',
  parameters: schema,
  async execute(args, deps) {
    const { workspace } = deps;
    const absolute = await resolveForWrite(workspace, args.file_path);
    const shown = workspace.relative(absolute);
    const before = await workspace.stat(absolute);
    if (before?.isDirectory) {
      throw new ToolError('not_a_file', `${shown} is a directory; give write_file the path of a file.`);
    }
    if (before && !before.isFile) throw notAFile(shown, before);
    // Only a file the model has seen is read first: the check needs its content, a blind overwrite does not.
    if (before?.isFile && deps.knownFiles?.[shown] !== undefined) {
      checkUnchangedSinceRead(deps, shown, await workspace.readFile(absolute));
    }
    await workspace.writeFile(absolute, args.content);
    const size = describeCount(countLines(args.content), 'line');
    const known = { path: shown, fingerprint: deps.fingerprint(args.content) };
    return before
      ? { ok: true, output: `Overwrote ${shown} (${size}).`, display: `Overwrote ${shown}`, known }
      : { ok: true, output: `Created ${shown} (${size}).`, display: `Created ${shown}`, known };
  },
};

function countLines(content: string): number {
  if (content === '') return 0;
  const lines = content.split('\n').length;
  return content.endsWith('\n') ? lines - 1 : lines;
}
