import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  isGrapevineError,
  type Json,
  LogFormatError,
  RngStreams,
  terminalLine,
  UsageError,
} from '../../core/index.ts';
import {
  type AuditBreach,
  type AuditFinding,
  auditPrompts,
  DEFAULT_PARTIAL_SHARE,
  type PartialFinding,
} from '../../metrics/index.ts';
import { readHeader } from '../../replay/index.ts';
import { migrateRecordedParams, resolveParams } from '../../world/index.ts';
import { type CommandOutput, PROCESS_OUTPUT } from '../command-output.ts';
import { type InputFileFlags, inputFileOptions, loadWorldFromHeader } from '../load-world.ts';
import type { LogWorldOptions } from '../log-world-options.ts';

/** Options of `grapevine audit`. */
export interface AuditCommandOptions extends LogWorldOptions {
  json?: boolean;
  /** `--partial SHARE`: the share of a private text's content words that is a partial match (0 turns it off). */
  partial?: string;
}

/** The audit of one log. */
export interface LogAudit {
  log: string;
  world?: string;
  prompts: number;
  /** Findings the world's rules allow, by basis. */
  declared: number;
  observed: number;
  /** Every finding, allowed or not (with its basis). */
  findings: AuditFinding[];
  leaks: AuditFinding[];
  /** Partial matches no observed message explains (see {@link PartialFinding}). */
  partialLeaks?: PartialFinding[];
  /** Deliveries withheld per visibility rule (logs with `addressees`). */
  withheld?: Record<string, number>;
  /** Messages observed although a rule withheld them: visibility breaches (exit 1 like leaks). */
  breaches?: AuditBreach[];
  /** Set when the log could not be audited (unreadable, minimal level, unknown world). */
  error?: { message: string; hint: string; exitCode: number };
}

/** The logs to audit: the file itself, or every `*.ndjson` / `*.ndjson.gz` of a directory (sorted). */
export function auditTargets(target: string): string[] {
  if (!existsSync(target))
    throw new LogFormatError(`no such log file or directory: ${target}`, {}, { hint: 'check the path' });
  if (!statSync(target).isDirectory()) return [target];
  // A study directory keeps its episodes in episodes/: look one level down too.
  const logs = readdirSync(target, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ndjson(\.gz)?$/.test(f) && f.split(/[\\/]/).length <= 2)
    .sort()
    .map((f) => join(target, f));
  if (logs.length === 0)
    throw new LogFormatError(
      `no replay logs (*.ndjson, *.ndjson.gz) in ${target}`,
      {},
      { hint: 'check the path' },
    );
  return logs;
}

/**
 * Audits one log: the world named in its header is built again (`create` with the
 * recorded parameters and seed, no LLM) for its private items, then every recorded prompt
 * is checked with `auditPrompts`.
 */
export async function auditLog(
  path: string,
  worldFile?: string,
  files: InputFileFlags = {},
  check?: boolean,
  partialShare = DEFAULT_PARTIAL_SHARE,
): Promise<LogAudit> {
  const header = await readHeader(path);
  const { def } = await loadWorldFromHeader(header, {
    worldFile,
    logPath: path,
    ...inputFileOptions(files),
    check,
  });
  const seed = header.seed as number;
  const model = (header.llm as { model?: string } | undefined)?.model;
  const instance = def.create({
    params: resolveParams(
      def,
      migrateRecordedParams(
        def,
        header.params as Record<string, unknown>,
        (header.world as { version: string }).version,
      ),
    ),
    seed,
    rng: new RngStreams(seed),
    model,
  });
  const privates = instance.privateItems ?? [];
  const report = await auditPrompts(path, privates, { partialShare });
  const count = (basis: string) => report.findings.filter((f) => f.basis === basis).length;
  return {
    log: path,
    world: def.id,
    prompts: report.prompts,
    declared: count('declared'),
    observed: count('observed'),
    findings: report.findings,
    leaks: report.leaks,
    partialLeaks: report.partials.filter((f) => !f.allowed),
    withheld: report.withheld,
    breaches: report.breaches,
  };
}

function whose(owner: number): string {
  return owner < 0 ? 'the environment' : `agent ${owner}`;
}

/** The text report of one log's audit: what came from the log is escaped for the terminal. */
function describe(a: LogAudit): string[] {
  return describeRaw(a).map((line) => terminalLine(line, 20_000));
}

function describeRaw(a: LogAudit): string[] {
  if (a.error)
    return [
      `${a.log}: cannot audit: ${a.error.message}`,
      ...(a.error.hint ? [`  hint: ${a.error.hint}`] : []),
    ];
  const allowed = a.declared + a.observed;
  const rules = Object.entries(a.withheld ?? {});
  return [
    `${a.log}: ${a.world}, ${a.prompts} prompts checked, ${allowed} findings allowed (${a.declared} declared, ${a.observed} observed), ${a.leaks.length} leaks${a.partialLeaks?.length ? `, ${a.partialLeaks.length} partial` : ''}`,
    ...(rules.length ? [`  withheld deliveries: ${rules.map(([r, n]) => `${n} by ${r}`).join(', ')}`] : []),
    ...a.leaks.map(
      (f) =>
        `  leak: seq ${f.seq} tick ${f.tick}: agent ${f.caller}'s prompt holds ${whose(f.owner)}'s ${f.kind} ${JSON.stringify(f.text)}${f.withheldBy ? ` (rule ${f.withheldBy} withheld it from this agent)` : ''}`,
    ),
    ...(a.partialLeaks ?? []).map(
      (f) =>
        `  partial: seq ${f.seq} tick ${f.tick}: agent ${f.caller}'s prompt holds ${Math.round(f.share * 100)}% of ${whose(f.owner)}'s ${f.kind} ${JSON.stringify(f.text)}: ${f.matched.join(' ')}${f.withheldBy ? ` (rule ${f.withheldBy} withheld it from this agent)` : ''}`,
    ),
    ...(a.breaches ?? []).map(
      (b) =>
        `  breach: seq ${b.seq} tick ${b.tick}: agent ${b.agent} observed message ${b.message}, which rule ${b.rule} withheld from it`,
    ),
  ];
}

/** `--partial SHARE` as a number in [0, 1]. @throws UsageError naming the value. */
function partialShareFlag(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PARTIAL_SHARE;
  const share = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(share >= 0 && share <= 1))
    throw new UsageError(`--partial ${JSON.stringify(value)}: expected a share between 0 and 1`, {
      hint: "e.g. --partial 0.6 (60% of a private text's content words), or --partial 0 to report whole texts only",
    });
  return share;
}

/**
 * `grapevine audit <log|dir> [--json]`: for every log, the private items of other agents
 * found in each recorded prompt and whether the world allowed them. Exit 2 if a log could
 * not be audited, else 1 if any unallowed leak, else 0.
 */
export async function auditCommand(
  target: string,
  opts: AuditCommandOptions,
  io: CommandOutput = PROCESS_OUTPUT,
): Promise<number> {
  const share = partialShareFlag(opts.partial);
  const audits: LogAudit[] = [];
  for (const log of auditTargets(target)) {
    try {
      audits.push(await auditLog(log, opts.world, opts, opts.check, share));
    } catch (err) {
      if (!isGrapevineError(err)) throw err;
      const error = { message: err.message, hint: err.hint, exitCode: err.exitCode };
      audits.push({ log, prompts: 0, declared: 0, observed: 0, findings: [], leaks: [], error });
    }
  }
  // a partial match is a suspected leak: it fails the audit too (--partial 0 turns it off)
  const leaks = audits.reduce(
    (n, a) => n + a.leaks.length + (a.partialLeaks?.length ?? 0) + (a.breaches?.length ?? 0),
    0,
  );
  const failed = audits.filter((a) => a.error).length;
  if (opts.json) {
    const prompts = audits.reduce((n, a) => n + a.prompts, 0);
    io.out(`${JSON.stringify({ logs: audits as unknown as Json, prompts, leaks, failed })}\n`);
  } else {
    io.out(`${audits.flatMap(describe).join('\n')}\n`);
    if (audits.length > 1) io.out(`${audits.length} logs: ${leaks} leaks, ${failed} not audited\n`);
  }
  if (failed > 0) {
    io.err(`grapevine: ${failed} log${failed === 1 ? '' : 's'} could not be audited\n`);
    return 2;
  }
  return leaks > 0 ? 1 : 0;
}
