// Programs some tests need besides Node: nats-server (the distributed sweeps) and Chromium
// (the viewer in a browser). Where one is missing, the cases that need it are skipped with
// one line saying why and how to install it, and the other cases of the file still run;
// under GRAPEVINE_REQUIRE_TOOLS=1 (set by .ci/run, which installs them) a missing one fails
// the file instead.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program some tests need. */
export interface Tool {
  /** What it is called. */
  name: string;
  /** Where it was looked for, when it is missing (for the skip line). */
  where(): string;
  /** True when it can be run. */
  present(): boolean;
  /** How to install it. */
  install: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The nats-server on the PATH. */
export const NATS_SERVER: Tool = {
  name: 'nats-server',
  where: () => 'on the PATH',
  present: () =>
    (process.env.PATH ?? '').split(delimiter).some((d) => d && executable(join(d, 'nats-server'))),
  install: 'apt-get install nats-server',
};

/** Chromium: Debian's package, or the executable GRAPEVINE_CHROMIUM names. */
export const CHROMIUM: Tool = {
  name: 'chromium',
  where: () => `at ${chromiumPath()}`,
  present: () => executable(chromiumPath()),
  install: 'apt-get install chromium (or set GRAPEVINE_CHROMIUM to a Chromium executable)',
};

/** The Chromium executable the viewer tests drive. */
export function chromiumPath(): string {
  return process.env.GRAPEVINE_CHROMIUM || '/usr/bin/chromium';
}

/** True when tests must fail, not skip, for a missing tool (.ci/run sets it). */
export function toolsRequired(): boolean {
  return process.env.GRAPEVINE_REQUIRE_TOOLS === '1';
}

/**
 * Whether the cases that need `tool` can run. When it is missing: under
 * GRAPEVINE_REQUIRE_TOOLS=1 this throws (the file fails, naming the tool); otherwise it writes
 * one line (what is skipped, why, the install command) and returns false, for
 * `describe.runIf(has(tool, what))`. Call it before the file makes anything (a temporary
 * folder), since a file that fails to load runs no after-hook.
 */
export function has(tool: Tool, what: string): boolean {
  if (tool.present()) return true;
  const why = `${tool.name} is not found ${tool.where()}; install it: ${tool.install}`;
  if (toolsRequired()) throw new Error(`${what}: ${why} (GRAPEVINE_REQUIRE_TOOLS=1: a missing tool fails)`);
  process.stderr.write(`skipped: ${what}: ${why}\n`);
  return false;
}
