import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  readTrustedFolders,
  realDirectory,
  trustedFoldersFile,
  trustingFolder,
  TrustFileError,
  updateTrustedFolders,
} from './trusted-folders';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'trust-home-'));
afterEach(() => fs.rmSync(trustedFoldersFile(home), { force: true }));

describe('trusted folders', () => {
  it('trusts a folder and everything below it, nothing beside it', () => {
    const folders = { '/srv/projects': 'TRUST_FOLDER' as const };
    expect(trustingFolder(folders, '/srv/projects')).toBe('/srv/projects');
    expect(trustingFolder(folders, '/srv/projects/a/b')).toBe('/srv/projects');
    expect(trustingFolder(folders, '/srv/projects-old')).toBeUndefined();
    expect(trustingFolder(folders, '/work')).toBeUndefined();
  });

  it('reads nothing from a missing file, and writes what it is given', async () => {
    expect(await readTrustedFolders(home)).toEqual({});
    await updateTrustedFolders(home, (f) => ({ ...f, '/a': 'TRUST_FOLDER' }));
    await updateTrustedFolders(home, (f) => ({ ...f, '/b': 'TRUST_FOLDER' }));
    expect(await readTrustedFolders(home)).toEqual({ '/a': 'TRUST_FOLDER', '/b': 'TRUST_FOLDER' });
  });

  it.each([
    ['not json', /not valid JSON/],
    ['["/a"]', /must be an object mapping absolute folder paths/],
    ['{"relative": "TRUST_FOLDER"}', /keys must be absolute folder paths/],
    ['{"/a": "DO_NOT_TRUST"}', /\/a: the only value is "TRUST_FOLDER"/],
  ])('refuses a bad file (%s), naming it', async (text, message) => {
    fs.writeFileSync(trustedFoldersFile(home), text);
    const read = readTrustedFolders(home);
    await expect(read).rejects.toBeInstanceOf(TrustFileError);
    await expect(readTrustedFolders(home)).rejects.toThrow(message);
    await expect(readTrustedFolders(home)).rejects.toThrow(trustedFoldersFile(home));
  });

  it('resolves a folder through symlinks; a file or a missing path is no folder', async () => {
    const real = fs.mkdtempSync(path.join(os.tmpdir(), 'trust-real-'));
    const link = `${real}-link`;
    fs.symlinkSync(real, link);
    fs.writeFileSync(path.join(real, 'f'), '');
    expect(await realDirectory(link)).toBe(fs.realpathSync(real));
    expect(await realDirectory(path.join(real, 'f'))).toBeUndefined();
    expect(await realDirectory(path.join(real, 'missing'))).toBeUndefined();
  });
});
