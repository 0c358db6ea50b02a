import { type ChatRequestMessage, messageText } from './chat-request.ts';

/** One line of the `Recent messages:` section. */
export interface RecentMessage {
  speaker: string;
  text: string;
}

/** What the responder reads from a prompt that follows the convention (see README.md). */
export interface PromptFacts {
  /** `Name: ...` line. */
  name?: string;
  /** `Persona: ...` line. */
  persona?: string;
  /** `Goal: ...` line. */
  goal?: string;
  /** Bullets of the `You know:` section, verbatim (bullet marker and outer spaces removed). */
  known: string[];
  /** Bullets of the `Recent messages:` section, oldest first. */
  recent: RecentMessage[];
  /** Entries of the `Allowed actions:` line, e.g. `['speak', 'dm', 'none']`. */
  allowedActions: string[];
  /** Entries of the `Contacts:` line. */
  contacts: string[];
  /** Text of the last user message (used when the prompt follows no convention). */
  lastUserText: string;
}

const BULLET = /^\s*[-*•]\s+(.*\S)\s*$/;

/**
 * Reads the prompt convention from chat messages. Profile lines (`Name:`, `Persona:`,
 * `Goal:`, `You know:`) are looked up in the system (or developer) messages first, then in
 * the last user message; turn lines (`Recent messages:`, `Allowed actions:`, `Contacts:`)
 * in the last user message first, then in the system messages. Keys are case-insensitive.
 */
export function readPromptFacts(messages: readonly ChatRequestMessage[]): PromptFacts {
  const system = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .flatMap((m) => messageText(m).split(/\r?\n/));
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const lastUserText = lastUser ? messageText(lastUser) : '';
  const user = lastUserText.split(/\r?\n/);
  const profile = [...system, ...user];
  const turn = [...user, ...system];
  return {
    name: field(profile, 'Name'),
    persona: field(profile, 'Persona'),
    goal: field(profile, 'Goal'),
    known: section(profile, 'You know'),
    recent: section(turn, 'Recent messages').flatMap(parseRecent),
    allowedActions: list(field(turn, 'Allowed actions')).map(cleanAction),
    contacts: list(field(turn, 'Contacts')),
    lastUserText,
  };
}

function keyPattern(key: string): RegExp {
  return new RegExp(`^\\s*${key.replace(/ /g, '\\s+')}\\s*:\\s*(.*?)\\s*$`, 'i');
}

/** The value of the first `Key: value` line with a non-empty value. */
function field(lines: readonly string[], key: string): string | undefined {
  const re = keyPattern(key);
  for (const line of lines) {
    const value = re.exec(line)?.[1];
    if (value) return value;
  }
  return undefined;
}

/** Bullets following the first `Key:` line, up to the first line that is not a bullet. */
function section(lines: readonly string[], key: string): string[] {
  const re = keyPattern(key);
  const start = lines.findIndex((line) => re.test(line));
  if (start < 0) return [];
  const inline = re.exec(lines[start])?.[1];
  const items = inline && !/^(none|nothing)\.?$/i.test(inline) ? [inline] : [];
  for (let i = start + 1; i < lines.length; i++) {
    const bullet = BULLET.exec(lines[i])?.[1];
    if (bullet) items.push(bullet);
    else if (lines[i].trim() !== '' || items.length > 0) break;
  }
  return items;
}

function list(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/\s*(?:,|\||;|\s\/\s|\bor\b)\s*/)
    .map((s) => s.trim().replace(/[.]$/, ''))
    .filter((s) => s !== '');
}

/** `"speak (say it to everyone)"` -> `speak`; quotes and backticks removed. */
function cleanAction(entry: string): string {
  return entry
    .replace(/\(.*\)/g, '')
    .replace(/[`'"]/g, '')
    .trim();
}

/** `- [t=3] Bob (dm): hello` -> `{ speaker: 'Bob', text: 'hello' }`. */
function parseRecent(bullet: string): RecentMessage[] {
  const m = /^(?:\[[^\]]*\]\s*)?([^:]{1,80}?)\s*(?:\([^)]*\))?\s*:\s*(.*)$/.exec(bullet);
  if (!m || m[1].trim() === '') return [];
  return [{ speaker: m[1].trim(), text: m[2].trim() }];
}
