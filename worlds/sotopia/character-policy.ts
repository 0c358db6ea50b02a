import type { Decision, StepContext } from '../../src/index.ts';
import { playTurn, type TurnReading } from './play-turn.ts';
import { agentPrompt } from './prompts.ts';
import { parsePydanticJson } from './pydantic-json.ts';
import { type SotopiaRun, transcriptOf } from './run-context.ts';
import { turnReplySchema } from './transcript.ts';
import { schemaFormat, zhouCharacterPrompt } from './zhou-prompts.ts';

/** `parsing: sotopia`: the turn's JSON Schema in the prompt, LangChain's JSON reading, a JSON repair. */
const SOTOPIA_FORMAT = schemaFormat(turnReplySchema);
const SOTOPIA_READING: TurnReading = {
  parse: (text) => parsePydanticJson(text, turnReplySchema),
  repair: { template: 'repair-json', format: SOTOPIA_FORMAT },
};

/**
 * A character's turn (`agents`, `mindreaders`): synchronously it takes in the partner's
 * last turn and builds its prompt from its own view only (`run.views[seat]`) and the
 * transcript it has heard; then one LLM call (caller = its seat) for `{action, argument}`.
 * An invalid reply is re-asked twice (under `parsing: sotopia`: repaired once), then the
 * turn is a recorded `none` (`fallback: true`).
 */
export function characterPolicy(run: SotopiaRun, ctx: StepContext<unknown>): Promise<Decision> {
  const seat = ctx.agent;
  const transcript = transcriptOf(ctx);
  const turn = transcript.length + 1;
  const z = run.zhou;
  const sotopia = z !== undefined && run.params.parsing === 'sotopia';
  const messages = z
    ? zhouCharacterPrompt(
        z.templates,
        run.params.mode === 'mindreaders' ? z.omniscient : z.backgrounds[seat],
        seat,
        transcript,
        sotopia ? SOTOPIA_FORMAT : undefined,
      )
    : agentPrompt(run.views[seat], transcript, turn, run.params.maxTurns);
  const params = z?.seatParams[seat];
  return playTurn(run, {
    caller: seat,
    tick: ctx.tick,
    purpose: 'turn',
    messages,
    turn,
    seat,
    transcript,
    params,
    reading: sotopia ? SOTOPIA_READING : undefined,
  });
}
