// The shapes the viewer page receives, apart from the code that builds them (view-model.ts):
// web/viewer imports its types from here, and its own type-check (scripts/build.mjs) then
// loads these few modules instead of the engine that view-model.ts imports (~250 modules).
import type { Message } from '../../../bus/message.ts';
import type { Json } from '../../../core/canonical-json.ts';
import type { Asymmetry } from '../../../report/asymmetry.ts';

/** One observation step of an agent: the messages it saw at a tick. */
export interface ObservedStep {
  tick: number;
  messages: Message[];
}

/** What the viewer page loads once (`/api/model`): the run, its curves and the drawn network. */
export interface ViewModel {
  log: string;
  world: { id: string; version: string };
  seed: number;
  digest: string;
  complete: boolean;
  /** The log's detail level: message-level views need `full`. */
  level: string;
  size: number;
  ticks: number[];
  metrics: Record<string, (number | null)[]>;
  /** Statechart regions after the lifecycle one (the items, in the built-in worlds). */
  regions: { name: string; states: readonly string[] }[];
  /** The colour of state index k of any region (the report's palette: one colour per state everywhere). */
  stateColours: readonly string[];
  /** The curves: one panel per declared metric group (or metric), as the report draws them. */
  panels: ViewPanel[];
  /** How the agents are placed (`force` or `circle`); `x`, `y` hold those positions. */
  layout: 'force' | 'circle';
  /** Drawn agents, their positions in [0,1]^2 and the edges among them (positions in `nodes`). */
  nodes: number[];
  x: number[];
  y: number[];
  edges: [number, number][];
  sampled: boolean;
  /** Per region, per tick: each drawn agent's state index as one character ('0' + index). */
  states: string[][];
  /** Items with provenance: per drawn agent, the tick it first heard the item (-1: never). */
  heard: Record<string, number[]>;
  asymmetry: Asymmetry[];
  /** Agents with recorded LLM calls. */
  llmAgents: number[];
  notes: string[];
}

/** One chart of the viewer: metrics sharing a unit, with their labels and colours. */
export interface ViewPanel {
  id: string;
  title: string;
  /** The y-axis title. */
  unit: string;
  lines: { key: string; label: string; colour: string }[];
}

/** One hop of a provenance path: the agent and the tick it heard the item. */
export interface ProvenanceHop {
  agent: number;
  at: number;
}

/** What clicking an agent shows (`/api/agent/<id>`); the page cuts it at the chosen tick. */
export interface AgentDetail {
  agent: number;
  memory: [number, Json][];
  observed: ObservedStep[];
  /** Encounters it opened or answered (`--log full` logs only; null otherwise). */
  encounters: Record<string, Json>[] | null;
  /** Its LLM calls: tick, purpose, prompt messages and reply. */
  llm: { tick: number; purpose: string; messages: Json; reply: string | null }[];
  /** Per item: who told it, back to the origin (the agent itself first). */
  provenance: Record<string, ProvenanceHop[]>;
}
