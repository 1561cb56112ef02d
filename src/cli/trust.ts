import * as path from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config';
import { atConfigEdge } from '../config/errors';
import { readTrustedFolders, realDirectory, trustingFolder, updateTrustedFolders } from '../config/trusted-folders';
import { EXIT, InputError } from './exit-codes';
import type { Io } from './output';
import { selfCommand } from '../runtime/self-command';

/**
 * The commands that edit folder trust (`<home>/trusted-folders.json`). Only a trusted workspace's own
 * `.durable-agent/` configuration is read (see config/workspace.ts, `isWorkspaceTrusted`).
 */

type Setup = () => { config: Config };

/** `trust [DIR] [--remove] [--list]` and `untrust [DIR]`. */
export function addTrust(program: Command, setup: Setup, io: Io): void {
  program
    .command('trust')
    .argument('[dir]', 'the folder (default: the current directory); its subfolders are trusted with it')
    .option('--remove', 'take the trust back')
    .option('--list', 'list the trusted folders')
    .description('trust a folder: its .durable-agent/ policies, settings (hooks) and agents apply')
    .action(async (dir: string | undefined, o: { remove?: boolean; list?: boolean }) => {
      const { config } = setup();
      if (o.list) process.exitCode = await listTrust(config, io);
      else
        process.exitCode = o.remove
          ? await removeTrust(config, dir ?? process.cwd(), io)
          : await addTrustedFolder(config, dir ?? process.cwd(), io);
    });
  program
    .command('untrust')
    .argument('[dir]', 'the folder (default: the current directory)')
    .description('take back the trust of a folder (as `trust --remove`)')
    .action(async (dir: string | undefined) => {
      process.exitCode = await removeTrust(setup().config, dir ?? process.cwd(), io);
    });
}

async function addTrustedFolder(config: Config, dir: string, io: Io): Promise<number> {
  const folder = await directory(dir);
  await atConfigEdge(() => updateTrustedFolders(config.home, (folders) => ({ ...folders, [folder]: 'TRUST_FOLDER' })));
  io.stdout.write(`trusted ${folder}\n`);
  return EXIT.ok;
}

async function removeTrust(config: Config, dir: string, io: Io): Promise<number> {
  const folder = await directory(dir);
  const folders = await readFolders(config);
  if (!(folder in folders)) {
    const parent = trustingFolder(folders, folder);
    if (parent)
      throw new InputError(`${folder} is trusted through ${parent}: run \`${selfCommand()} trust --remove ${parent}\``);
    io.stdout.write(`${folder} was not trusted\n`);
    return EXIT.ok;
  }
  await atConfigEdge(() => updateTrustedFolders(config.home, ({ [folder]: _removed, ...rest }) => rest));
  io.stdout.write(`no longer trusted: ${folder}\n`);
  return EXIT.ok;
}

async function listTrust(config: Config, io: Io): Promise<number> {
  const folders = Object.keys(await readFolders(config)).sort();
  io.stdout.write(folders.length === 0 ? 'no trusted folders\n' : folders.map((f) => `${f}\n`).join(''));
  return EXIT.ok;
}

/** A bad trusted-folders file stops the command with exit 52. */
function readFolders(config: Config) {
  return atConfigEdge(() => readTrustedFolders(config.home));
}

async function directory(dir: string): Promise<string> {
  const real = await realDirectory(dir);
  if (!real) throw new InputError(`${path.resolve(dir)} is not a directory`);
  return real;
}
