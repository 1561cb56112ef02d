/** The Prometheus text a worker serves at `http://127.0.0.1:<port>/metrics`. */
export async function scrape(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  return res.text();
}

/** The sum of a metric's samples (exact name, optionally only lines whose labels match) over scrapes. */
export function sum(scrapes: string[], name: string, labels?: RegExp): number {
  let total = 0;
  for (const text of scrapes)
    for (const line of text.split('\n')) {
      const match = new RegExp(`^${name}(\\{[^}]*\\})? ([0-9.e+-]+)$`).exec(line);
      if (match && (!labels || labels.test(match[1] ?? ''))) total += Number(match[2]);
    }
  return total;
}
