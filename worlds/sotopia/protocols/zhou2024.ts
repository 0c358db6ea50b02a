import type { Json, WorldView } from '../../../src/index.ts';
import type { LlmParams } from '../../../src/public/llm.ts';
import type { Episode } from '../episode.ts';
import type { JudgeOutcome } from '../judge-reply.ts';
import type { SotopiaParams } from '../params.ts';
import { ENV_SEAT } from '../seats.ts';
import { type TurnReply, turnRecord, turnReplySchema } from '../transcript.ts';
import { type Background, backgroundFor, type Wording } from './background.ts';
import type { Asked, ReplyContract } from './contract.ts';
import { grapevineContract } from './contract-grapevine.ts';
import { sotopiaContract } from './contract-sotopia.ts';
import { zhouEndReason } from './end-rules.ts';
import { fillTemplate } from './fill.ts';
import { loadPack, type Pack } from './pack.ts';
import type { Call, ScriptCall, SotopiaProtocol, SummaryBase } from './protocol.ts';
import { parseScript, type ScriptLine } from './script-parser.ts';
import {
  characterPrompt,
  judgePrompt,
  playwrightPrompt,
  repairPrompt,
  scriptPrompt,
} from './zhou2024-prompts.ts';

/** The reply contracts by name. */
const CONTRACTS: Record<SotopiaParams['contract'], ReplyContract> = {
  sotopia: sotopiaContract,
  grapevine: grapevineContract,
};

/** What the zhou2024 protocol is built from. */
export interface Zhou2024Setup {
  episode: Episode;
  params: SotopiaParams;
  /** The run's model (the characters' unless `seatModels`, the writer's, the judge's unless `judgeModel`). */
  model: string;
  seed: number;
}

/** A free-text script read by Sotopia's parser, repaired once with the `repair-script` prompt. */
function scriptText(names: readonly [string, string], format: string): Asked<ScriptLine[]> {
  return {
    format,
    reading: {
      schema: turnReplySchema.array() as never,
      name: 'sotopia_script',
      sotopia: {
        parse: (text) => {
          const r = parseScript(text, names);
          return r.ok ? { ok: true, value: r.lines } : r;
        },
        repair: { template: 'repair-script', format, agents: names },
      },
    },
  };
}

/**
 * The playwright's turn under `parsing: sotopia`: the first line of the free-text reply,
 * whoever it names (Sotopia's `ScriptWritingAgent.aact` takes `action[1][0][1]`).
 */
function playwrightText(names: readonly [string, string], format: string): Asked<TurnReply> {
  const lines = scriptText(names, format).reading.sotopia!;
  return {
    format,
    reading: {
      schema: turnReplySchema,
      name: 'sotopia_action',
      sotopia: {
        parse: (text) => {
          const r = lines.parse(text);
          return r.ok ? { ok: true, value: { action: r.value[0].action, argument: r.value[0].argument } } : r;
        },
        repair: lines.repair,
      },
    },
  };
}

/** The model parameters of the seats, the writer and the judge. */
function modelParams(s: Zhou2024Setup): {
  seats: [LlmParams, LlmParams];
  writer: LlmParams;
  judge: LlmParams;
} {
  const { params, model, seed } = s;
  const seat = (k: number): LlmParams => ({
    model: params.seatModels[k] || model,
    temperature: params.temperature,
    seed,
  });
  return {
    seats: [seat(0), seat(1)],
    writer: { model, temperature: params.writerTemperature, seed },
    judge: { model: params.judgeModel || model, temperature: 0, seed },
  };
}

/** What each call asks for and how its reply is read: the contract's JSON replies, or Sotopia's free-text scripts. */
function asks(pack: Pack, contract: ReplyContract, params: SotopiaParams, names: readonly [string, string]) {
  const sotopia = params.parsing === 'sotopia';
  const turn = contract.turn(pack, params.parsing);
  // a format text is a template without placeholders (its `{{`/`}}` become braces)
  const format = (name: 'format-turn' | 'format-script') => fillTemplate(pack.text[name], {}, pack.escapes);
  return {
    turn,
    playwright: sotopia ? playwrightText(names, format('format-turn')) : turn,
    script: sotopia ? scriptText(names, format('format-script')) : contract.scriptJson(pack, names),
    judge: contract.judge(pack, names, params.rubric, params.parsing),
  };
}

/** A zhou2024 script as the episode: the lines as written, `no-script` when there are none. */
function finishScript(names: readonly [string, string]): ScriptCall['finish'] {
  return (lines) => {
    const transcript = lines.map((t, k) => {
      const seat = names.indexOf(t.name);
      return turnRecord(k + 1, seat, names[seat], { action: t.action, argument: t.argument }, false);
    });
    return { transcript, reason: transcript.length > 0 ? 'script-end' : 'no-script' };
  };
}

/**
 * The zhou2024 protocol: the information per mode, rules and reply contract of the code Zhou
 * et al. 2024 ran (sotopia-lab/sotopia, tag `agent_vs_storyteller_v1`), every word from a
 * template pack, the replies read by the run's contract and `parsing`.
 */
export function zhou2024Protocol(s: Zhou2024Setup): SotopiaProtocol {
  const { episode, params } = s;
  const contract = CONTRACTS[params.contract];
  const pack = loadPack({
    dir: params.templates,
    contract: params.contract,
    repairs: params.parsing === 'sotopia',
  });
  const w: Wording = { pack, rendering: contract.rendering };
  const omniscient = backgroundFor(w, episode, 'omniscient');
  const own: [Background, Background] = [backgroundFor(w, episode, 0), backgroundFor(w, episode, 1)];
  const models = modelParams(s);
  const a = asks(pack, contract, params, episode.names);
  return {
    name: 'zhou2024',
    characterTurn: (seat, transcript): Call<TurnReply> => ({
      messages: characterPrompt(
        w,
        params.mode === 'mindreaders' ? omniscient : own[seat],
        seat,
        transcript,
        a.turn.format,
      ),
      params: models.seats[seat],
      reading: a.turn.reading,
    }),
    playwrightTurn: (seat, transcript) => ({
      messages: playwrightPrompt(w, omniscient, seat, transcript, a.playwright.format),
      params: models.writer,
      reading: a.playwright.reading,
    }),
    script: () => ({
      messages: scriptPrompt(w, omniscient, params.maxTurns, a.script.format),
      params: models.writer,
      reading: a.script.reading,
      attempts: params.regenerate,
      recordAttempts: true,
      finish: finishScript(episode.names),
    }),
    judge: (transcript, endReason) =>
      !params.judge || endReason === 'no-script'
        ? null
        : {
            messages: judgePrompt(w, omniscient, transcript, params.mode !== 'script', a.judge.format),
            params: models.judge,
            reading: a.judge.reading,
            // parsing=sotopia: one judgement (with its repair); a study reruns the episode instead
            attempts: params.parsing === 'sotopia' ? 1 : params.regenerate,
          },
    endReason: (transcript) => zhouEndReason(transcript, params.maxTurns, params.maxIdle),
    repairPrompt: (spec, bad) => repairPrompt(w, spec, bad),
    inputs: { templates: pack.hashes },
    summaryFields: (view, base) => summaryFields(view, base, params, models.seats, models.judge),
  };
}

/** zhou2024's summary fields: the protocol, whether the episode is missing, attempts, models. */
function summaryFields(
  view: WorldView,
  s: SummaryBase,
  params: SotopiaParams,
  seats: [LlmParams, LlmParams],
  judge: LlmParams,
): Record<string, Json> {
  const attempts = view.executor.getMemory(ENV_SEAT, 'scriptAttempts') as number | undefined;
  const outcome = view.executor.getMemory(ENV_SEAT, 'judge') as JudgeOutcome | null | undefined;
  const unjudged = params.judge && s.scores === null;
  return {
    protocol: params.protocol,
    missing: s.endReason !== 'unfinished' && (s.endReason === 'no-script' || unjudged),
    ...(attempts !== undefined && { scriptAttempts: attempts }),
    ...(outcome?.attempts !== undefined && s.judge && { judge: { ...s.judge, attempts: outcome.attempts } }),
    models: { seat0: seats[0].model, seat1: seats[1].model, judge: params.judge ? judge.model : null },
  };
}
