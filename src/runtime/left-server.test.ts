import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { awaitLeftServer, leftServerFile, recordLeftServer } from './left-server';

function home(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'left-server-'));
  fs.mkdirSync(path.join(dir, 'temporal'));
  return dir;
}

describe('awaitLeftServer', () => {
  test('returns at once without a record, and drops a record that is not a pid', async () => {
    const dir = home();
    await awaitLeftServer(dir);
    fs.writeFileSync(leftServerFile(dir), 'not a pid\n');
    await awaitLeftServer(dir, 60_000);
    expect(fs.existsSync(leftServerFile(dir))).toBe(false);
  });

  test('waits until the recorded process is gone, then drops the record', async () => {
    const dir = home();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 1500)']);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    recordLeftServer(dir, child.pid!);
    let gone = false;
    void exited.then(() => (gone = true));
    await awaitLeftServer(dir, 60_000);
    expect(gone).toBe(true);
    expect(fs.existsSync(leftServerFile(dir))).toBe(false);
  });
});
