import type { LlmResponder, ResponderKit } from '../../src/public/llm.ts';

/**
 * The Sotopia world's responder of the local LLM server, for the free-text prompts of its
 * script writer and playwright (`parsing: sotopia`): a last user message with a
 * `Participants: A and B` line and `Turn #` format instructions gets a short script of
 * `Turn #n` / `<name> said: "..."` lines between A and B. It declares the role of the
 * `argument` field of Sotopia's `AgentAction` replies (`{action, argument}`): the line said.
 */
export const sotopiaScriptResponder: LlmResponder = {
  name: 'sotopia-script',
  fieldRoles: { argument: 'text' },
  respond(kit) {
    if (!kit.freeText) return undefined;
    const participants = scriptParticipants(kit.facts.lastUserText);
    return participants ? kit.finish(renderScript(participants, kit.plan().text, kit.dice)) : undefined;
  },
};

/** The two participants of a prompt asking for a `Turn #` script, if it is one. */
export function scriptParticipants(text: string): [string, string] | undefined {
  if (!text.includes('Turn #')) return undefined;
  const m = /^Participants: (.+?) and (.+?)\s*$/m.exec(text);
  return m ? [m[1], m[2]] : undefined;
}

/**
 * A short script between the two participants: 2..6 turns, alternating from the first,
 * each a line said (the planned line first), the last sometimes a leave.
 */
export function renderScript(
  names: readonly [string, string],
  line: string,
  dice: ResponderKit['dice'],
): string {
  const n = 2 + dice.int('script-turns', 5);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const speaker = names[k % 2];
    const other = names[(k + 1) % 2];
    const said = (k === 0 && line ? line : `I hear you, ${other}. Let us keep talking.`).replace(
      /["\n]/g,
      ' ',
    );
    const leaves = k === n - 1 && dice.chance('script-leave', 0.5);
    out.push(`Turn #${k + 1}`, leaves ? `${speaker} left the conversation` : `${speaker} said: "${said}"`);
  }
  return out.join('\n');
}
