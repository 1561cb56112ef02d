import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { folderTree } from './folder-tree';

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'tree-'));
  const files = ['.gitignore', 'README.md', 'src/a.ts', 'src/deep/b.ts', 'build/out.js', 'node_modules/x/index.js'];
  for (const file of files) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), file === '.gitignore' ? 'build/\n*.log\n' : 'x');
  }
  await fs.writeFile(path.join(root, 'debug.log'), 'x');
  for (let i = 0; i < 30; i++) await fs.writeFile(path.join(root, 'src', `f${String(i).padStart(2, '0')}.ts`), 'x');
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

describe('folder tree', () => {
  it('lists folders and files, leaves out what .gitignore excludes, and does not walk node_modules', async () => {
    const tree = await folderTree(root);
    expect(tree).toContain(`${root}${path.sep}`);
    expect(tree).toMatch(/^ {2}README\.md$/m);
    expect(tree).toMatch(/^ {2}src\/$/m);
    expect(tree).toMatch(/^ {6}b\.ts$/m);
    expect(tree).toMatch(/^ {2}node_modules\/ \.\.\.$/m);
    expect(tree).not.toContain('index.js');
    expect(tree).not.toContain('build');
    expect(tree).not.toContain('debug.log');
  });

  it('stops at the bound, breadth first, and marks where it stopped', async () => {
    const tree = await folderTree(root, 10);
    const entries = tree
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '...');
    expect(entries).toHaveLength(10);
    expect(tree).toMatch(/^ {4}\.\.\.$/m);
    expect(tree).not.toContain('b.ts');
  });
});
