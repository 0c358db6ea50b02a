import { isGrapevineError, RngStreams, terminalLine } from '../core/index.ts';
import type { Topology } from '../network/index.ts';
import { readHeader } from '../replay/index.ts';
import type { StateLayout } from '../report/index.ts';
import { type MetricDeclarations, migrateParams } from '../world/index.ts';
import { type InputFileFlags, inputFileOptions, loadWorldFromHeader, namesInputFile } from './load-world.ts';

/**
 * The agent machine layout of the world that wrote a log, needed to name the columns of
 * its snapshots: the world is built again from the header (parameters and seed, no LLM).
 * Returns undefined, with a warning on stderr, when the world cannot be built: the report
 * then leaves out what needs the snapshot (cascades, asymmetry).
 */
export async function layoutOfLog(
  path: string,
  worldFile?: string,
  /** The input files the user named, and `check: false` for `--no-check`. */
  files: InputFileFlags & { check?: boolean } = {},
): Promise<StateLayout | undefined> {
  return (await worldOfLog(path, worldFile, files))?.layout;
}

/**
 * What {@link layoutOfLog} builds, with the world's network (for the report's communities)
 * and its metric declarations; undefined, with the same warning, when the world cannot be built.
 */
export async function worldOfLog(
  path: string,
  worldFile?: string,
  /** `--network-file FILE`, `--input PARAM=FILE` (their sha256 must be the log's); `check: false` skips the type check. */
  files: InputFileFlags & { check?: boolean } = {},
): Promise<{ layout: StateLayout; network: Topology | undefined; metrics?: MetricDeclarations } | undefined> {
  const header = await readHeader(path);
  try {
    const { def } = await loadWorldFromHeader(header, {
      worldFile,
      logPath: path,
      ...inputFileOptions(files),
      check: files.check,
    });
    const seed = header.seed as number;
    const version = (header.world as { version?: string } | undefined)?.version;
    const instance = def.create({
      params: migrateParams(def, header.params as Record<string, unknown>, version).params,
      seed,
      rng: new RngStreams(seed),
      model: (header.llm as { model?: string } | undefined)?.model,
    });
    return { layout: instance.agents.layout, network: instance.network, metrics: def.metrics };
  } catch (err) {
    // a file the user named must load; a built-in world that cannot be rebuilt only costs the cascades
    if (!isGrapevineError(err) || worldFile !== undefined || namesInputFile(files)) throw err;
    process.stderr.write(`grapevine: warning: no cascades or asymmetry: ${terminalLine(err.message)}\n`);
    return undefined;
  }
}
