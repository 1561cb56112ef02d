import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadMcpServers } from './mcp-settings';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-settings-'));
const write = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

describe('loadMcpServers', () => {
  it('reads both files in Gemini CLI format; the workspace replaces a server of the same name', async () => {
    const userFile = write('user.json', {
      mcpServers: { a: { command: 'node', args: ['a.js'], env: { K: '$V' }, trust: true }, b: { url: 'http://h/sse' } },
    });
    const workspaceFile = write('ws.json', {
      mcpServers: { b: { httpUrl: 'http://h/mcp', headers: { X: 'y' }, timeout: 5000, includeTools: ['t'] } },
      hooks: {},
    });
    expect(await loadMcpServers({ userFile, workspaceFile })).toEqual({
      a: { command: 'node', args: ['a.js'], env: { K: '$V' }, trust: true },
      b: { httpUrl: 'http://h/mcp', headers: { X: 'y' }, timeout: 5000, includeTools: ['t'] },
    });
  });

  it('leaves the workspace file unread when it is not given (an untrusted workspace)', async () => {
    expect(await loadMcpServers({ userFile: path.join(dir, 'none.json') })).toBeUndefined();
  });

  it.each([
    [{ a: {} }, /mcpServers\.a: needs exactly one of "command" \(stdio\), "httpUrl" \(streamable HTTP\) or "url"/],
    [{ a: { command: 'x', url: 'http://h' } }, /mcpServers\.a: needs exactly one/],
    [{ a: { httpUrl: 'not a url' } }, /mcpServers\.a\.httpUrl: /],
    [{ a: { command: 'x', timeout: -1 } }, /mcpServers\.a\.timeout: /],
    [{ 'a b': { command: 'x' } }, /mcpServers\.a b: server names use letters/],
    [{ a: { command: 'x', args: 'y' } }, /mcpServers\.a\.args: /],
  ])('a bad server stops with the file and the field named: %j', async (servers, message) => {
    const userFile = write('bad.json', { mcpServers: servers });
    await expect(loadMcpServers({ userFile })).rejects.toThrow(message);
    await expect(loadMcpServers({ userFile })).rejects.toThrow(userFile);
  });
});
