import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * No `src/**\/name.ts` beside a folder `name/`: `import '../name'` then means the file, and a reader
 * cannot tell which of the two holds what (the worker's wiring now lives in src/worker/index.ts).
 */

const SRC = path.join(__dirname, '..', 'src');

/** Allowed anyway, with the reason. */
const EXCEPTIONS: Record<string, string> = {
  // The one client every front end uses is the design's `src/client.ts`; `src/client/` holds its parts.
  'client.ts': 'the front ends’ one client API over the parts in src/client/',
};

function filesBesideFolders(dir: string): string[] {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  const folders = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesBesideFolders(full);
    const stem = entry.name.replace(/\.ts$/, '');
    return entry.name.endsWith('.ts') && folders.has(stem) ? [path.relative(SRC, full)] : [];
  });
}

test('no source file sits beside a folder of the same name', () => {
  expect(filesBesideFolders(SRC).filter((file) => EXCEPTIONS[file] === undefined)).toEqual([]);
});
