import { z } from 'zod';
import type { Decision, Json, OutgoingMessage, StepContext } from '../../src/index.ts';
import type { LlmRequest } from '../../src/public/llm.ts';
import { decideStructured } from '../../src/public/llm.ts';
import { judgeReplySchema, runJudge } from './judge.ts';
import { playTurn, type TurnReading } from './play-turn.ts';
import { playwrightPrompt, scriptPrompt } from './prompts.ts';
import { type EndPayload, endMessage, type SotopiaRun, transcriptOf } from './run-context.ts';
import { parseScript, type ScriptLine } from './script-parser.ts';
import { ENV_SEAT } from './seats.ts';
import { askReply, type ParseResult } from './sotopia-ask.ts';
import type { Templates } from './templates.ts';
import {
  ACTION_TYPES,
  type ActionType,
  cutScript,
  type EndReason,
  type TurnRecord,
  turnRecord,
} from './transcript.ts';
import {
  judgeFormat,
  SCRIPT_TEXT_FORMAT,
  schemaFormat,
  TURN_TEXT_FORMAT,
  zhouJudgePrompt,
  zhouPlaywrightPrompt,
  zhouScriptPrompt,
} from './zhou-prompts.ts';

/** A free-text script as its lines (`parsing: sotopia`). */
function scriptLines(names: readonly [string, string]): (text: string) => ParseResult<ScriptLine[]> {
  return (text) => {
    const r = parseScript(text, names);
    return r.ok ? { ok: true, value: r.lines } : r;
  };
}

/**
 * The playwright's turn under `parsing: sotopia`: the first line of the free-text reply,
 * whoever it names (Sotopia's `ScriptWritingAgent.aact` takes `action[1][0][1]`).
 */
function playwrightReading(names: readonly [string, string]): TurnReading {
  const lines = scriptLines(names);
  return {
    parse: (text) => {
      const r = lines(text);
      return r.ok ? { ok: true, value: { action: r.value[0].action, argument: r.value[0].argument } } : r;
    },
    repair: { template: 'repair-script', format: TURN_TEXT_FORMAT, agents: names },
  };
}

/** The `script` reply: the whole episode as turns, each by one of the two characters. */
export function scriptReplySchema(names: readonly [string, string], maxTurns: number) {
  return z.object({
    turns: z
      .array(z.object({ speaker: z.enum(names), action: z.enum(ACTION_TYPES), argument: z.string() }))
      .min(Math.min(2, maxTurns))
      .max(maxTurns),
  });
}

/** A script reply as turn records, cut where a played episode would end. */
export function scriptTranscript(
  names: readonly [string, string],
  turns: readonly { speaker: string; action: ActionType; argument: string }[],
  maxTurns: number,
  maxIdle: number,
): { transcript: TurnRecord[]; reason: EndReason } {
  const records = turns.map((t, k) => {
    const seat = names.indexOf(t.speaker);
    return turnRecord(k + 1, seat, names[seat], { action: t.action, argument: t.argument }, false);
  });
  return cutScript(records, maxTurns, maxIdle);
}

/**
 * `script`: one omniscient call (caller "2") writes the whole episode. Each turn becomes a
 * `turn` message from seat 2 to the character who hears it (so the transcript is in the
 * log like any other), then `end` goes to seat 2 itself. No valid script: an empty
 * transcript ending `no-script`.
 */
function scriptStep(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const request = {
    caller: String(ENV_SEAT),
    tick: ctx.tick,
    purpose: 'write-script',
    messages: scriptPrompt(run.writer, run.params.maxTurns),
    params: run.llmParams,
  };
  const schema = scriptReplySchema(run.episode.names, run.params.maxTurns);
  const llm = run.llm!;
  return (async () => {
    const result = await decideStructured(llm, request, schema, {
      fallback: { turns: [] },
      counters: run.fallbacks,
      name: 'sotopia_script',
    });
    const { transcript, reason } = result.fallback
      ? { transcript: [], reason: 'no-script' as const }
      : scriptTranscript(run.episode.names, result.value.turns, run.params.maxTurns, run.params.maxIdle);
    const messages: OutgoingMessage[] = transcript.map((t) => ({
      address: { to: 'agent', id: 1 - t.speaker },
      kind: 'turn',
      payload: t,
    }));
    messages.push(endMessage({ reason, transcript }));
    return { memory: { transcript: transcript as unknown as Json }, messages };
  })();
}

/** The zhou2024 script reply: at least one turn, no upper bound (the length is asked, never enforced). */
export function zhouScriptSchema(names: readonly [string, string]) {
  return z.object({
    turns: z
      .array(z.object({ speaker: z.enum(names), action: z.enum(ACTION_TYPES), argument: z.string() }))
      .min(1),
  });
}

/**
 * The zhou2024 script as lines, [] when no usable reply came: JSON turns re-asked twice
 * (`parsing: reask`), or free text read by Sotopia's parser and repaired once (`sotopia`).
 */
async function writeScript(run: SotopiaRun, request: LlmRequest, sotopia: boolean): Promise<ScriptLine[]> {
  const names = run.episode.names;
  const lines = scriptLines(names);
  const result = await askReply({
    llm: run.llm!,
    request,
    schema: zhouScriptSchema(names),
    name: 'sotopia_script',
    fallback: { turns: [] },
    counters: run.fallbacks,
    sotopia: sotopia
      ? {
          parse: (text) => {
            const r = lines(text);
            return r.ok ? { ok: true, value: { turns: r.value.map((l) => ({ ...l, speaker: l.name })) } } : r;
          },
          repair: { template: 'repair-script', format: SCRIPT_TEXT_FORMAT, agents: names },
          templates: run.zhou!.templates,
          repairModel: run.params.repairModel,
        }
      : undefined,
  });
  return result.value.turns.map((t) => ({ name: t.speaker, action: t.action, argument: t.argument }));
}

/**
 * zhou2024 `script`: one omniscient call writes the whole episode, kept as written (not cut
 * at a leave, an idle run or a length). A call whose replies all failed is regenerated
 * (`write-script:attemptN`, up to `regenerate` attempts, each recorded); if none holds,
 * the episode ends `no-script` and counts as missing (it is not judged).
 */
async function zhouScriptStep(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const zr = run.zhou!;
  const names = run.episode.names;
  const sotopia = run.params.parsing === 'sotopia';
  const messages = sotopia
    ? zhouScriptPrompt(zr.templates, zr.omniscient, run.params.maxTurns, SCRIPT_TEXT_FORMAT)
    : zhouScriptPrompt(zr.templates, zr.omniscient, run.params.maxTurns);
  let transcript: TurnRecord[] = [];
  let attempts = 0;
  while (attempts < run.params.regenerate && transcript.length === 0) {
    attempts++;
    const purpose = attempts === 1 ? 'write-script' : `write-script:attempt${attempts}`;
    const request = { caller: String(ENV_SEAT), tick: ctx.tick, purpose, messages, params: zr.writerParams };
    const lines = await writeScript(run, request, sotopia);
    transcript = lines.map((t, k) => {
      const seat = names.indexOf(t.name);
      return turnRecord(k + 1, seat, names[seat], { action: t.action, argument: t.argument }, false);
    });
  }
  const reason: EndReason = transcript.length > 0 ? 'script-end' : 'no-script';
  const out: OutgoingMessage[] = transcript.map((t) => ({
    address: { to: 'agent', id: 1 - t.speaker },
    kind: 'turn',
    payload: t,
  }));
  out.push(endMessage({ reason, transcript }));
  return { memory: { transcript: transcript as unknown as Json, scriptAttempts: attempts }, messages: out };
}

/** `playwright`: one omniscient call (caller "2") per turn, for the character whose turn it is. */
function playwrightStep(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const transcript = transcriptOf(ctx);
  const turn = transcript.length + 1;
  const seat = (turn - 1) % 2;
  const zr = run.zhou;
  const sotopia = zr !== undefined && run.params.parsing === 'sotopia';
  const messages = zr
    ? zhouPlaywrightPrompt(
        zr.templates,
        zr.omniscient,
        seat,
        transcript,
        sotopia ? TURN_TEXT_FORMAT : undefined,
      )
    : playwrightPrompt(run.writer, transcript, turn, seat, run.params.maxTurns);
  return playTurn(run, {
    params: zr?.writerParams,
    caller: ENV_SEAT,
    tick: ctx.tick,
    purpose: 'write-turn',
    messages,
    turn,
    seat,
    transcript,
    reading: sotopia ? playwrightReading(run.episode.names) : undefined,
  });
}

/** `parsing: sotopia`: the rubric's instructions and the reply's JSON Schema (Sotopia's `EnvResponse` format). */
function sotopiaJudgeFormat(t: Templates, run: SotopiaRun): string {
  return `${judgeFormat(t, run.episode.names, run.params.rubric)}\n${schemaFormat(judgeReplySchema)}`;
}

/**
 * The environment's last step, on the `end` message: records the end reason and the
 * transcript and, with `judge` on, asks the judge (caller "judge"); then moves to `over`,
 * which stops the run.
 */
function judgeStep(run: SotopiaRun, ctx: StepContext<unknown>, end: EndPayload): Promise<Decision> {
  const memory = { endReason: end.reason, transcript: end.transcript as unknown as Json };
  if (!run.params.judge || (run.zhou && end.reason === 'no-script'))
    return Promise.resolve({ events: ['END'], memory: { ...memory, judge: null } });
  const zr = run.zhou;
  const sotopia = zr && run.params.parsing === 'sotopia';
  const format = zr && sotopia ? sotopiaJudgeFormat(zr.templates, run) : undefined;
  const call = {
    ...(zr && {
      messages: zhouJudgePrompt(
        zr.templates,
        zr.omniscient,
        end.transcript,
        run.params.mode !== 'script',
        run.params.rubric,
        format,
      ),
      // parsing=sotopia: one judgement (with its repair); a study reruns the episode instead
      attempts: sotopia ? 1 : run.params.regenerate,
    }),
    ...(zr &&
      format && { sotopia: { templates: zr.templates, repairModel: run.params.repairModel, format } }),
    llm: run.llm!,
    tick: ctx.tick,
    params: run.judgeParams,
    view: run.environment,
    transcript: end.transcript,
    endReason: end.reason,
    counters: run.fallbacks,
  };
  return runJudge(call).then((outcome) => ({
    events: ['END'],
    memory: { ...memory, judge: outcome as unknown as Json },
  }));
}

/** Seat 2: the writer in the omniscient modes, the judge once the episode is over. */
export function environmentPolicy(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const end = ctx.inbox.toArray().find((m) => m.kind === 'end');
  if (end) return judgeStep(run, ctx, end.payload as unknown as EndPayload);
  if (run.params.mode === 'script') return run.zhou ? zhouScriptStep(run, ctx) : scriptStep(run, ctx);
  if (run.params.mode === 'playwright') return playwrightStep(run, ctx);
  return Promise.resolve({});
}
