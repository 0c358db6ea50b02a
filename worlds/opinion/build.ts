import { resolve } from 'node:path';
import {
  ConfigError,
  type InputFileResolver,
  networkFromParams,
  type RngStreams,
  readInputFile,
  sha256Hex,
  type Topology,
} from '../../src/index.ts';
import { loadAgentValues } from './agent-values.ts';
import type { OpinionParams } from './params.ts';
import { loadTrustWeights, type TrustWeights } from './trust-weights.ts';

/** What the world is built from: who hears whom, W when it comes from a file, and the files read. */
export interface OpinionSetup {
  topology: Topology;
  weights: TrustWeights | null;
  inputs: Record<string, string>;
}

function need(path: string, param: string, when: string): string {
  if (!path) throw new ConfigError(`${when} needs ${param}`, { hint: `add --set ${param}=path/to/file.csv` });
  return path;
}

function fileHash(path: string): string {
  return sha256Hex(readInputFile(resolve(path), { what: 'input file', bytesPerByte: 1 }));
}

function checkParams(p: OpinionParams): void {
  if (p.model === 'hegselmann-krause' && p.weights === 'file')
    throw new ConfigError('hegselmann-krause takes no trust weights (weights=file)', {
      hint: 'use weights=network: each agent averages the close-enough opinions of its neighbours',
    });
  if ((p.model === 'voter' || p.model === 'deffuant-weisbuch') && p.weights === 'file')
    throw new ConfigError(`${p.model} takes no trust weights (weights=file)`, {
      hint: 'use weights=network: agents meet random neighbours (network=csv reads a network from a file)',
    });
  if (p.lambdaMin > p.lambdaMax)
    throw new ConfigError(`lambdaMin (${p.lambdaMin}) exceeds lambdaMax (${p.lambdaMax})`, {
      hint: 'susceptibility=uniform draws λ from [lambdaMin, lambdaMax]',
    });
}

/** Builds the network (or reads W from a file, whose listeners then form the network). */
export function buildSetup(p: OpinionParams, rng: RngStreams, resolvePath?: InputFileResolver): OpinionSetup {
  checkParams(p);
  const inputs: Record<string, string> = {};
  if (p.weights === 'file') {
    const named = need(p.weightsFile, 'weightsFile', 'weights=file');
    const path = resolvePath ? resolvePath('weightsFile', named) : named;
    const weights = loadTrustWeights(path);
    inputs.weightsFile = fileHash(path);
    return { topology: weights.listeners(), weights, inputs };
  }
  const net = networkFromParams(p, rng.stream('network'), resolvePath);
  return { topology: net.topology, weights: null, inputs: { ...inputs, ...net.inputs } };
}

/** Voter: round(share·size) agents chosen at random (partial Fisher–Yates) hold 1, the rest 0. */
function binaryOpinions(share: number, size: number, rng: RngStreams): Float64Array {
  const s = rng.stream('opinions');
  const order = Int32Array.from({ length: size }, (_, i) => i);
  const ones = Math.round(share * size);
  const out = new Float64Array(size);
  for (let k = 0; k < ones; k++) {
    const r = k + s.int(size - k);
    [order[k], order[r]] = [order[r], order[k]];
    out[order[k]] = 1;
  }
  return out;
}

/**
 * Initial opinions: uniform on [0,1] from the `opinions` stream (voter: a random
 * round(share·n) agents hold 1, the rest 0), or from opinionsFile (voter: 0 or 1 only).
 */
export function initialOpinions(
  p: OpinionParams,
  size: number,
  rng: RngStreams,
  setup: OpinionSetup,
  resolvePath?: InputFileResolver,
): Float64Array {
  if (p.initial === 'file') {
    const named = need(p.opinionsFile, 'opinionsFile', 'initial=file');
    const path = resolvePath ? resolvePath('opinionsFile', named) : named;
    setup.inputs.opinionsFile = fileHash(path);
    const x = loadAgentValues(path, size, 'opinion', [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]);
    const bad = x.findIndex((v) => v !== 0 && v !== 1);
    if (p.model === 'voter' && bad >= 0)
      throw new ConfigError(`the voter model needs opinions 0 or 1; agent ${bad} has ${x[bad]}`, {
        hint: 'give every agent opinion 0 or 1 in opinionsFile',
      });
    return x;
  }
  if (p.model === 'voter') return binaryOpinions(p.share, size, rng);
  const s = rng.stream('opinions');
  return Float64Array.from({ length: size }, () => s.next());
}

/** Friedkin–Johnsen susceptibilities λ_i: fixed, uniform from the `susceptibility` stream, or from a file. */
export function susceptibilities(
  p: OpinionParams,
  size: number,
  rng: RngStreams,
  setup: OpinionSetup,
  resolvePath?: InputFileResolver,
): Float64Array {
  if (p.susceptibility === 'file') {
    const named = need(p.susceptibilityFile, 'susceptibilityFile', 'susceptibility=file');
    const path = resolvePath ? resolvePath('susceptibilityFile', named) : named;
    setup.inputs.susceptibilityFile = fileHash(path);
    return loadAgentValues(path, size, 'susceptibility', [0, 1]);
  }
  if (p.susceptibility === 'fixed') return new Float64Array(size).fill(p.lambda);
  const s = rng.stream('susceptibility');
  return Float64Array.from({ length: size }, () => p.lambdaMin + (p.lambdaMax - p.lambdaMin) * s.next());
}
