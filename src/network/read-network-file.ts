import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../core/index.ts';

/**
 * Reads a network file as UTF-8 text (without a byte-order mark), turning a missing or
 * unreadable file into a {@link ConfigError}. Internal to the network module.
 * @param what What the file should be, for the message, e.g. `edge list`.
 */
export function readNetworkFile(path: string, what: string): string {
  let text: string;
  try {
    // A device or pipe (/dev/zero) would be read until memory runs out: only regular files.
    const info = statSync(path);
    if (!info.isFile() && !info.isDirectory())
      throw new ConfigError(`cannot read ${what} ${path}: not a regular file`, {
        hint: 'give the path of an edge-list file',
      });
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    if (cause instanceof ConfigError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(cause);
    throw new ConfigError(`cannot read ${what} ${path}: ${reason}`, {
      hint: 'check the path; relative paths are resolved against the working directory or the config file',
      cause,
    });
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
