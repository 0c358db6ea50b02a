import { DIMENSION_NAMES } from '../dimensions.ts';
import { bioPieces, contextPieces } from './extract-background.ts';
import { asFString, asTemplate, asValue, cleandoc, nth, only } from './pack-text.ts';
import {
  baseClasses,
  block,
  docstring,
  fieldDescriptions,
  joinSeparators,
  plain,
  SourceShapeError,
  type Span,
  stringsAssigned,
  stringsBeforeNotIn,
  stringsReturned,
  wholeFile,
} from './python-source.ts';
import { annotatedType, caseReturns, fstrings, hasField, type SotopiaSources } from './sotopia-strings.ts';

/**
 * Sotopia's prompt words, read from the source files of a Sotopia checkout at
 * `agent_vs_storyteller_v1` (see `SOTOPIA_FILES`), as the files of a template pack. Each
 * string is found by where Sotopia's code keeps it and converted to pack text; its
 * placeholders are checked against what Sotopia's code fills in.
 */

/** What the extractor makes: the pack's text files, its JSON files' objects. */
export interface ExtractedPack {
  text: Record<string, string>;
  pieces: Record<string, string>;
  rubric: Record<string, { steps: string; plus: string }>;
  fields: {
    turn: { description: string | null; action_type: string; argument: string };
    evaluation: { name: string; name_plus: string };
  };
}

const FORMAT = { format_instructions: 'format' };

/** The prompts of generate.py and evaluators.py. */
function prompts(s: SotopiaSources): Record<string, string> {
  const gen = wholeFile(s.generate);
  const action = block(gen, 'def', 'agenerate_action');
  const script = block(gen, 'def', 'agenerate_script');
  const scripts = stringsAssigned(script, 'template');
  const judge = block(block(wholeFile(s.evaluators), 'class', 'ReachGoalLLMEvaluator'), 'def', '__acall__');
  return {
    // the agent's branch: the second template of agenerate_action (the first is the script-like one)
    character: asTemplate(
      nth(stringsAssigned(action, 'template'), 1, 2, action.label),
      `${action.label} (agent template)`,
      { agent: 'agent', history: 'history', turn_number: 'turn', action_list: 'actions', ...FORMAT },
      true,
    ),
    playwright: asTemplate(
      nth(scripts, 0, 2, script.label),
      `${script.label} (single step)`,
      { background: 'background', history: 'history', agent: 'agent', ...FORMAT },
      true,
    ),
    script: asTemplate(
      nth(scripts, 1, 2, script.label),
      `${script.label} (whole script)`,
      { background: 'background', ...FORMAT },
      true,
    ),
    judge: asTemplate(
      only(stringsAssigned(judge, 'template'), judge.label),
      judge.label,
      { history: 'history', ...FORMAT },
      true,
    ),
    'repair-json': repair(gen, 'format_bad_output', { ill_formed_output: 'ill_formed', ...FORMAT }),
    'repair-script': repair(gen, 'format_bad_output_for_script', {
      ill_formed_output: 'ill_formed',
      ...FORMAT,
      agents: 'agents',
    }),
  };
}

/** A repair template: sent as written (Sotopia's `obtain_chain` gets it without `format_docstring`). */
function repair(gen: Span, name: string, rename: Record<string, string>): string {
  const fn = block(gen, 'def', name);
  return asTemplate(only(stringsAssigned(fn, 'template'), fn.label), fn.label, rename, false);
}

/** The script parser's two format instructions (`ScriptOutputParser.get_format_instructions`). */
function formats(s: SotopiaSources): Record<string, string> {
  const fn = block(
    block(wholeFile(s.generate), 'class', 'ScriptOutputParser'),
    'def',
    'get_format_instructions',
  );
  const found = stringsReturned(fn);
  const out: Record<string, string> = {
    // `if self.single_turn: return ...` first, the whole script's after `else:`
    'format-turn': asValue(nth(found, 0, 2, fn.label), `${fn.label} (single turn)`),
    'format-script': asValue(nth(found, 1, 2, fn.label), `${fn.label} (whole script)`),
  };
  if (s.langchain) {
    const f = only(stringsAssigned(wholeFile(s.langchain), 'PYDANTIC_FORMAT_INSTRUCTIONS'), s.langchain.file);
    out['format-json'] = asTemplate(
      f,
      `${s.langchain.file} PYDANTIC_FORMAT_INSTRUCTIONS`,
      { schema: 'schema' },
      false,
    );
  }
  return out;
}

/** `Observation.to_natural_language`, `AgentAction.to_natural_language`, the actions' line, the separators. */
function historyPieces(s: SotopiaSources): Record<string, string> {
  const messages = wholeFile(s.messages);
  const obs = block(block(messages, 'class', 'Observation'), 'def', 'to_natural_language');
  const found = fstrings(obs);
  const line = only(
    found.filter((f) => hasField(f, 'self.turn_number-1')),
    `${obs.label} (a turn)`,
  );
  const start = only(
    found.filter((f) => !hasField(f, 'self.turn_number-1')),
    `${obs.label} (the start)`,
  );
  const turn = { 'self.turn_number-1': 'turn', 'self.last_turn': 'last_turn' };
  const act = block(block(messages, 'class', 'AgentAction'), 'def', 'to_natural_language');
  const cases = caseReturns(act);
  const need = (k: string) => {
    if (!cases[k]) throw new SourceShapeError(`${act.label} has no case "${k}"`);
    return cases[k];
  };
  const actionFields = { 'self.argument': 'argument', 'self.action_type': 'action_type' };
  const other = asFString(need('action'), act.label, actionFields);
  if (asFString(need('non-verbal communication'), act.label, actionFields) !== other)
    throw new SourceShapeError(`${act.label}: "action" and "non-verbal communication" read differently`);
  const par = wholeFile(s.parallel);
  const acted = block(par, 'def', '_actions_to_natural_language');
  const agent = block(block(wholeFile(s.agent), 'class', 'LLMAgent'), 'def', 'aact');
  const writer = block(block(wholeFile(s.agent), 'class', 'ScriptWritingAgent'), 'def', 'aact');
  const separator = asValue(only(joinSeparators(agent), agent.label), agent.label);
  if (asValue(only(joinSeparators(writer), writer.label), writer.label) !== separator)
    throw new SourceShapeError(
      `${writer.label} joins its history unlike ${agent.label}; a pack has one separator`,
    );
  const step = block(par, 'def', 'astep');
  const reset = block(par, 'def', 'reset');
  const unknown = stringsAssigned(reset, 'p2_goal').filter((f) => !f.fstring);
  const actionList = block(wholeFile(s.generate), 'def', 'agenerate_action');
  return {
    'history-start': asFString(start, obs.label, { 'self.last_turn': 'background' }),
    'turn-line': asFString(line, obs.label, turn),
    'turn-line-idle': asFString(line, obs.label, { ...turn, 'self.last_turn': { text: '' } }),
    'history-separator': separator,
    acted: asFString(only(fstrings(acted), acted.label), acted.label, {
      agent: 'name',
      'action.to_natural_language()': 'action',
    }),
    'action-none': asValue(need('none'), act.label),
    'action-speak': asFString(need('speak'), act.label, actionFields),
    'action-other': other,
    'action-leave': asValue(need('leave'), act.label),
    'action-list-separator': asValue(only(joinSeparators(actionList), actionList.label), actionList.label),
    'goal-unknown': asValue(only(unknown, `${reset.label} (the partner's goal)`), reset.label),
    'judge-step': asFString(only(stringsAssigned(step, 'message'), step.label), step.label, {
      'self.turn_number': 'turn',
    }),
  };
}

/** The evaluator's history: its line, its separator, the phrase whose entries it leaves out. */
function judgePieces(s: SotopiaSources): Record<string, string> {
  const fn = block(block(wholeFile(s.evaluators), 'class', 'ReachGoalLLMEvaluator'), 'def', '__acall__');
  return {
    'judge-line': asFString(
      only(
        fstrings(fn).filter((f) => hasField(f, 'x')),
        fn.label,
      ),
      fn.label,
      { x: 'name', 'y.to_natural_language()': 'action' },
    ),
    'judge-separator': asValue(only(joinSeparators(fn), fn.label), fn.label),
    'judge-skip': asValue(only(stringsBeforeNotIn(fn), fn.label), fn.label),
  };
}

/** The seven dimensions' descriptions, basic and plus (`EvaluationBySocialDimensions[Plus]`). */
function rubric(s: SotopiaSources): ExtractedPack['rubric'] {
  const ev = wholeFile(s.evaluators);
  const read = (cls: string) => {
    const b = block(ev, 'class', cls);
    const fields = fieldDescriptions(b);
    const names = fields.map((f) => f.field);
    if (names.join() !== DIMENSION_NAMES.join())
      throw new SourceShapeError(
        `${b.label} has the fields ${names.join(', ')}; expected ${DIMENSION_NAMES.join(', ')}`,
      );
    return Object.fromEntries(fields.map((f) => [f.field, plain(f.description.parts, b.label)]));
  };
  const basic = read(annotatedType(block(ev, 'class', 'EnvResponse'), 'agent_1_evaluation'));
  const plus = read(annotatedType(block(ev, 'class', 'EnvResponsePlus'), 'agent_1_evaluation'));
  return Object.fromEntries(DIMENSION_NAMES.map((d) => [d, { steps: basic[d], plus: plus[d] }]));
}

/** `AgentAction`'s field descriptions and the docstring pydantic gives it (its own or its nearest base's). */
function replyFields(s: SotopiaSources): ExtractedPack['fields'] {
  const m = wholeFile(s.messages);
  const fields = Object.fromEntries(
    fieldDescriptions(block(m, 'class', 'AgentAction')).map((f) => [
      f.field,
      plain(f.description.parts, 'AgentAction'),
    ]),
  );
  for (const f of ['action_type', 'argument'])
    if (typeof fields[f] !== 'string')
      throw new SourceShapeError(`${s.messages.file} AgentAction has no ${f} description`);
  let description: string | null = null;
  for (let cls = 'AgentAction', depth = 0; description === null && depth < 8; depth++) {
    description = docstring(block(m, 'class', cls));
    const base = baseClasses(m, cls)[0];
    if (description !== null || !base || base === 'BaseModel') break;
    cls = base;
  }
  const ev = wholeFile(s.evaluators);
  return {
    turn: {
      description: description === null ? null : cleandoc(description),
      action_type: fields.action_type,
      argument: fields.argument,
    },
    evaluation: {
      name: annotatedType(block(ev, 'class', 'EnvResponse'), 'agent_1_evaluation'),
      name_plus: annotatedType(block(ev, 'class', 'EnvResponsePlus'), 'agent_1_evaluation'),
    },
  };
}

/** Every string of the pack that Sotopia's files hold. */
export function extractPack(s: SotopiaSources): ExtractedPack {
  return {
    text: { ...prompts(s), ...formats(s) },
    pieces: { ...contextPieces(s), ...bioPieces(s), ...historyPieces(s), ...judgePieces(s) },
    rubric: rubric(s),
    fields: replyFields(s),
  };
}
