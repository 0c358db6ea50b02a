import { ConfigError, isGrapevineError } from '../core/index.ts';
import type { AgentMachine } from './agent-machine.ts';
import { compileMachine } from './compile-machine.ts';

/** The two executors of one agent machine (see {@link AgentExecutor}). */
export type ExecutorKind = 'xstate' | 'columnar';

/** Which executor runs a world's agents, and the one sentence that says why. */
export interface ExecutorChoice {
  kind: ExecutorKind;
  reason: string;
}

/** Who asked for an executor, if anyone: the run (`--executor`, a log's header) or the world. */
export interface ExecutorRequest {
  /** Asked by the run: the command line, or the executor a log recorded. */
  forced?: ExecutorKind;
  /** Where `forced` came from, for the reason line (default "the run"). */
  forcedBy?: string;
  /** Declared by the world (`WorldInstance.executor`). */
  declared?: ExecutorKind;
}

/**
 * What keeps a machine off the columnar executor, or null when nothing does: a statechart
 * outside the compilable subset, or memory entries the machine declares as JSON.
 */
export function columnarObstacle(machine: AgentMachine): string | null {
  const json = machine.spec.jsonMemory ?? [];
  if (json.length > 0)
    return `its agents keep JSON in memory (${json.map((k) => `"${k}"`).join(', ')}), which columns cannot hold`;
  try {
    compileMachine(machine.machine);
  } catch (err) {
    if (!isGrapevineError(err)) throw err;
    return err.message;
  }
  return null;
}

/**
 * Chooses the executor of a run: the one the run forces, else the one the world declares,
 * else the columnar executor whenever the machine compiles and its memory is numeric, and
 * XState otherwise. A forced or declared columnar executor that the machine does not allow
 * is a {@link ConfigError} naming the obstacle.
 */
export function chooseExecutor(machine: AgentMachine, request: ExecutorRequest = {}): ExecutorChoice {
  const obstacle = columnarObstacle(machine);
  const asked = request.forced ?? request.declared;
  if (asked !== undefined) {
    const by = request.forced !== undefined ? (request.forcedBy ?? 'the run') : 'the world';
    if (asked === 'columnar' && obstacle !== null)
      throw new ConfigError(
        `executor "columnar" (asked by ${by}) cannot run machine "${machine.spec.id}": ${obstacle}`,
        {
          hint: 'leave the executor to grapevine, or ask for "xstate"',
        },
      );
    return { kind: asked, reason: `asked by ${by}` };
  }
  if (obstacle !== null) return { kind: 'xstate', reason: obstacle };
  return {
    kind: 'columnar',
    reason: 'its statechart compiles to a transition table and its memory is numeric',
  };
}
