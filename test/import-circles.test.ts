import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * No import circle in src/: a circle makes load order decide which side sees `undefined`, and it hides which module
 * owns
 * what. Every relative import, export-from and dynamic import counts, type-only ones too, since a type circle is the
 * same tangle of owners. Tests are left out: a test may import what it likes.
 */

const SRC = path.join(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles.map((ref) => resolveImport(file, ref.fileName));
    graph.set(file, [...new Set(targets.filter((target): target is string => target !== undefined))]);
  }
  return graph;
}

/** Tarjan's strongly connected components; every component of more than one file is a circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) visit(target);
      if (stack.includes(target)) low.set(node, Math.min(low.get(node)!, low.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    if (component.length > 1) found.push(component.map((file) => path.relative(SRC, file)).sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

test('no import circle in src/', () => {
  expect(circles(importGraph(sourceFiles(SRC)))).toEqual([]);
});

test('the check sees a circle when there is one', () => {
  const graph = new Map([
    ['/a.ts', ['/b.ts']],
    ['/b.ts', ['/c.ts']],
    ['/c.ts', ['/a.ts']],
    ['/d.ts', ['/a.ts']],
  ]);
  expect(circles(graph)).toHaveLength(1);
});
