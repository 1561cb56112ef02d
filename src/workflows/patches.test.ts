import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PATCHES } from './patches';

/** Every non-test source file under src/, with its text. */
function sources(dir = 'src'): { file: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [{ file: path, text: readFileSync(path, 'utf8') }] : [];
  });
}

const entries = Object.entries(PATCHES);

test('no patch is checked outside the register', () => {
  const strays = sources()
    .filter(({ file }) => file !== join('src', 'workflows', 'patches.ts'))
    .filter(({ text }) => /\b(patched|deprecatePatch)\(/.test(text.replace(/isPatched\(|deprecate\(/g, '')))
    .map(({ file }) => file);
  expect(strays).toEqual([]);
});

test('every registered patch is still checked somewhere, under its own key', () => {
  const all = sources()
    .map(({ text }) => text)
    .join('\n');
  const unused = entries
    .filter(([key]) => !all.includes(`isPatched(PATCHES.${key})`) && !all.includes(`deprecate(PATCHES.${key})`))
    .map(([key]) => key);
  expect(unused).toEqual([]);
});

test('ids are unique, and each entry says what it guards and since when', () => {
  const ids = entries.map(([, p]) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const [, p] of entries) {
    expect(p.id).toMatch(/^[a-z0-9-]+$/);
    expect(p.since).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(p.guards.length).toBeGreaterThan(20);
  }
});

test('a patch checked with deprecate() is marked retiring, and one checked with isPatched() is not', () => {
  const all = sources()
    .map(({ text }) => text)
    .join('\n');
  const wrong = entries
    .filter(([key, p]) => all.includes(`deprecate(PATCHES.${key})`) !== ('retiring' in p && p.retiring === true))
    .map(([key]) => key);
  expect(wrong).toEqual([]);
});
