import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { sha256Hex, UsageError } from '../core/index.ts';

/** A world file a worker was started with: where it is and the sha256 of its bytes then. */
export interface AllowedWorldFile {
  path: string;
  sha256: string;
}

/** What a worker decided about a spec's world: the reference to load, or why not. */
export type WorldAdmission = { ref: string } | { refused: string };

/** True when a world reference names a file rather than a built-in id. */
export function namesWorldFile(ref: string): boolean {
  return /[\\/]/.test(ref) || /\.(m|c)?(t|j)s$/.test(ref);
}

function fileSha(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? sha256Hex(readFileSync(path)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The worlds a queue worker runs: the built-in ids, and the world files named on its own
 * command line (`--world FILE`), hashed when it starts. A spec chooses among them and
 * nothing else: a file it names is run only when it is one of those files (same absolute
 * path), the spec carries that file's sha256, and the file still has it. So a message on
 * the queue never makes a worker import a file its operator did not name.
 */
export class WorkerWorlds {
  private constructor(
    private readonly builtin: ReadonlySet<string>,
    private readonly files: ReadonlyMap<string, string>,
  ) {}

  /**
   * Reads and hashes each named file.
   * @throws UsageError (exit 2) for a file that is missing or not a regular file.
   */
  static open(builtin: readonly string[], files: readonly string[]): WorkerWorlds {
    const hashed = new Map<string, string>();
    for (const file of files) {
      const path = resolve(file);
      const sha = fileSha(path);
      if (sha === undefined)
        throw new UsageError(`--world ${file}: no such world file`, {
          hint: 'give the path of a world file (.ts or .js) this worker may run',
        });
      hashed.set(path, sha);
    }
    return new WorkerWorlds(new Set(builtin), hashed);
  }

  /** The files this worker may run, with their sha256. */
  get allowedFiles(): AllowedWorldFile[] {
    return [...this.files].map(([path, sha256]) => ({ path, sha256 }));
  }

  /** Admits or refuses a spec's world (`world` and its `worldSha256`); reads nothing but an allowed file. */
  admit(world: string, sha256: string | undefined): WorldAdmission {
    if (!namesWorldFile(world)) {
      if (this.builtin.has(world)) return { ref: world };
      return { refused: `the spec names the world "${world}", which is not built in` };
    }
    const path = resolve(world);
    const known = this.files.get(path);
    if (known === undefined)
      return {
        refused: `the spec names the world file ${world}, which this worker was not started with (--world FILE)`,
      };
    if (sha256 === undefined) return { refused: `the spec names the world file ${world} without its sha256` };
    if (sha256 !== known)
      return {
        refused: `the spec's world file ${world} has sha256 ${sha256.slice(0, 12)}…, this worker's has ${known.slice(0, 12)}…`,
      };
    if (fileSha(path) !== known)
      return { refused: `the world file ${world} changed since this worker started; restart it` };
    return { ref: path };
  }
}
