import { canonicalJson, type Json } from '../../core/index.ts';
import { NetworkShare } from '../../network/index.ts';
import type { Engine, EngineState, RunResult, WorldDefinition } from '../../world/index.ts';
import type { RecordedRun } from '../read/recorded-run.ts';
import { type ContinueOptions, continueRun, type RestoredPoint, restorePoint } from './continue-run.ts';
import { snapshotState } from './copy-lines.ts';
import { rerunRecorded } from './rerun-log.ts';
import type { VerifyingLog } from './verifying-log.ts';

/** What differs between the children of one fork tick. */
export type ForkChild = Omit<
  ContinueOptions,
  'def' | 'recorded' | 'path' | 'atTick' | 'restored' | 'ownsRecorded'
>;

/** Writes children of a run forked after `atTick`, restored from the state `shared` says, each with `continueRun`'s bytes. */
export interface ChildFactory {
  readonly atTick: number;
  readonly shared: 'snapshot' | 'rerun' | 'none';
  fork(child: ForkChild): Promise<RunResult>;
}

/** Stops the rerun that takes the state (not an error). */
class Taken extends Error {}

/**
 * Restores a recorded run at the end of `atTick` once, for several children: the snapshot there,
 * or the state taken by rerunning (checked) from the nearest snapshot before. Each child restores
 * a copy, so R children pay for the parent's tail and the network once, and its log is
 * byte-identical to forking it alone. An LLM world (replies served per child), or a fork before
 * the first snapshot, gets children that restore on their own (`shared: 'none'`).
 */
export async function restoreOnce(
  def: WorldDefinition,
  recorded: RecordedRun,
  path: string,
  atTick: number,
): Promise<ChildFactory> {
  const base = { def, recorded, path, atTick };
  const own: ChildFactory = { atTick, shared: 'none', fork: (c) => continueRun({ ...c, ...base }) };
  const snap = restorePoint(recorded, atTick);
  if (def.needsLlm || snap === undefined) return own;
  let point: RestoredPoint | undefined;
  if (snap.tick === atTick) {
    const chain = recorded.boundaryChains.get(snap.seq);
    if (chain === undefined) return own;
    point = { state: await snapshotState(recorded, path, snap.seq, true), seq: snap.seq, chain };
  }
  // the world's network too is built once (by the first run here) and reused by the others
  const networks = new NetworkShare();
  if (point === undefined) point = await networks.during(() => takeState(def, recorded, path, snap, atTick));
  const restored = point;
  return {
    atTick,
    shared: snap.tick === atTick ? 'snapshot' : 'rerun',
    fork: (c) => networks.during(() => continueRun({ ...c, ...base, restored })),
  };
}

/** Reruns the recorded ticks after snapshot `snap` up to `atTick` and takes the state at its end. */
async function takeState(
  def: WorldDefinition,
  recorded: RecordedRun,
  path: string,
  snap: { seq: number; tick: number },
  atTick: number,
): Promise<RestoredPoint> {
  const chain = recorded.boundaryChains.get(snap.seq);
  if (chain === undefined) throw new Error(`restoreOnce: no chain value recorded at seq ${snap.seq}`);
  let engine: Engine | undefined;
  let log: VerifyingLog | undefined;
  let point: RestoredPoint | undefined;
  const restore = (await snapshotState(recorded, path, snap.seq)) as unknown as EngineState;
  const interventionsAt = (t: number) => {
    if (t < atTick) return recorded.interventions.get(t) ?? [];
    // the end of the fork tick: its tick line (and snapshot) checked, interventions not yet applied
    const state = JSON.parse(canonicalJson(engine!.exportState())) as Json;
    point = { state, seq: log!.seq, chain: log!.checkedChain };
    throw new Taken();
  };
  const onReady = (e: Engine) => {
    engine = e;
  };
  const tail = { from: { seq: snap.seq, chain } };
  try {
    await rerunRecorded(
      def,
      recorded,
      { restore, interventionsAt, onReady },
      { tail, onLog: (l) => (log = l) },
    );
  } catch (err) {
    if (!(err instanceof Taken)) throw err;
  }
  if (point === undefined) throw new Error(`restoreOnce: the rerun ended before tick ${atTick}`);
  return point;
}
