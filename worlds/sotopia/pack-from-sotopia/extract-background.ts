import { asFString, escapeBraces, only } from './pack-text.ts';
import {
  block,
  dictOfStrings,
  SourceShapeError,
  type Span,
  stringsReturned,
  wholeFile,
} from './python-source.ts';
import type { SotopiaSources } from './sotopia-strings.ts';
import { fstrings, hasField } from './sotopia-strings.ts';

/**
 * The background's pieces from Sotopia's files: the context (`ScriptBackground`), the
 * profile parts (`get_bio`'s four forms) and the gender words (`_map_gender_to_adj`).
 */

const BIO_FIELDS: Record<string, string> = {
  'profile.first_name': 'first_name',
  'profile.last_name': 'last_name',
  'profile.age': 'age',
  '_map_gender_to_adj(profile.gender)': 'gender',
  'profile.occupation.lower()': 'occupation',
  'profile.gender_pronoun': 'pronouns',
  'profile.public_info': 'public_info',
  'profile.personality_and_values': 'personality',
  'profile.secret': 'secret',
  agent_id: 'agent_id',
};

/** One `get_bio` form as pack text split at its `<p viewer=...>` section: [before, inside, after]. */
function bioForm(parallel: Span, fn: string): [string, string, string] {
  const b = block(parallel, 'def', fn);
  const text = asFString(only(stringsReturned(b), b.label), b.label, BIO_FIELDS);
  const m = /^(.*)<p viewer='agent_\{agent_id\}'>(.*)<\/p>(.*)$/s.exec(text);
  if (!m) throw new SourceShapeError(`${b.label} has no <p viewer='agent_...'> section`);
  return [m[1], m[2], m[3]];
}

/**
 * The four profile parts from Sotopia's four `get_bio` forms: what precedes the private
 * section grows from the name (known by name) to the public part (acquaintance) to the
 * personality (friend and closer); the stranger's form must be the same text whole.
 */
export function bioPieces(s: SotopiaSources): Record<string, string> {
  const p = wholeFile(s.parallel);
  const [name, nameRest] = bioForm(p, '_agent_profile_to_name_self');
  const [acq] = bioForm(p, '_agent_profile_to_aquaintance_self');
  const [friend, secret] = bioForm(p, '_agent_profile_to_friendabove_self');
  const [, stranger] = bioForm(p, '_agent_profile_to_stranger_self');
  const label = `${s.parallel.file} get_bio`;
  if (!acq.startsWith(name) || !friend.startsWith(acq))
    throw new SourceShapeError(`${label}: the forms do not grow from the name to the personality`);
  const pieces = {
    'bio-name': name,
    'bio-public': acq.slice(name.length),
    'bio-personality': friend.slice(acq.length),
    'bio-secret': secret,
  };
  const whole = Object.values(pieces).join('');
  if (stranger !== whole || `${name}${nameRest}` !== whole)
    throw new SourceShapeError(`${label}: the forms do not hold the same profile text`);
  const genders = dictOfStrings(block(p, 'def', '_map_gender_to_adj'));
  for (const g of ['Man', 'Woman', 'Nonbinary'])
    if (typeof genders[g] !== 'string')
      throw new SourceShapeError(`${label}: _map_gender_to_adj has no "${g}"`);
  return {
    ...pieces,
    'gender-man': escapeBraces(genders.Man),
    'gender-woman': escapeBraces(genders.Woman),
    'gender-nonbinary': escapeBraces(genders.Nonbinary),
  };
}

/** `ScriptBackground.to_natural_language`: the context with and without the two profiles. */
export function contextPieces(s: SotopiaSources): Record<string, string> {
  const fn = block(block(wholeFile(s.messages), 'class', 'ScriptBackground'), 'def', 'to_natural_language');
  const found = fstrings(fn);
  const fields = {
    'self.scenario': 'scenario',
    'self.p1_name': 'name_1',
    'self.p2_name': 'name_2',
    'self.p1_background': 'bio_1',
    'self.p2_background': 'bio_2',
    'self.p1_goal': 'goal_1',
    'self.p2_goal': 'goal_2',
  };
  const withBios = found.filter((f) => hasField(f, 'self.p1_background'));
  const without = found.filter((f) => !hasField(f, 'self.p1_background'));
  return {
    context: formatDocstringPack(asFString(only(withBios, `${fn.label} (with profiles)`), fn.label, fields)),
    'context-without-bios': formatDocstringPack(
      asFString(only(without, `${fn.label} (without profiles)`), fn.label, fields),
    ),
  };
}

/** Sotopia passes the filled context through `format_docstring`; the template gets it too (the run cleans the filled text again). */
function formatDocstringPack(text: string): string {
  return text.replace(/\n +/g, '\n').trim();
}
