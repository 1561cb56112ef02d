import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every path under `dir` with its mode and bytes (files) or target (links): equal trees are equal byte for byte. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const p = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(path.join(dir, p));
      if (st.isSymbolicLink()) out[p] = `-> ${fs.readlinkSync(path.join(dir, p))}`;
      else if (st.isDirectory()) visit(p);
      else out[p] = `${(st.mode & 0o777).toString(8)} ${fs.readFileSync(path.join(dir, p)).toString('base64')}`;
    }
  };
  visit('');
  return out;
}
