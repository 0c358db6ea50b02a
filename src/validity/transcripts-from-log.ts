import { readLog } from '../replay/index.ts';
import type { Turn } from './alienness.ts';

interface SendEvent {
  from?: number;
  payload?: { text?: unknown; name?: unknown };
}

interface LlmEvent {
  caller?: string;
  messages?: { role?: string; content?: unknown }[];
}

/** The `Name: X` line of an agent's system prompt, when its prompts have one. */
function nameInPrompt(e: LlmEvent): string | undefined {
  const system = e.messages?.find((m) => m.role === 'system')?.content;
  return typeof system === 'string' ? /^Name: (.+)$/m.exec(system)?.[1]?.trim() : undefined;
}

/**
 * The conversation recorded in a log, as turns: every `send` event whose payload has a
 * string `text`, in log order. The speaker is the payload's `name` (Sotopia turns), else
 * the `Name:` line of the sender's system prompt in its `llm` events (town square), else
 * `agent <index>`. Needs a log that records sends (`--log full` for most worlds).
 */
export async function transcriptFromLog(path: string): Promise<Turn[]> {
  const names = new Map<string, string>();
  const sends: { from: string; name?: string; text: string }[] = [];
  for await (const line of readLog(path)) {
    if (line.type === 'llm') {
      const e = line.event as LlmEvent;
      const n = nameInPrompt(e);
      if (e.caller !== undefined && n && !names.has(e.caller)) names.set(e.caller, n);
    } else if (line.type === 'send') {
      const e = line.event as SendEvent;
      const text = e.payload?.text;
      if (typeof text !== 'string') continue;
      const name = typeof e.payload?.name === 'string' ? e.payload.name : undefined;
      sends.push({ from: String(e.from), name, text });
    }
  }
  return sends.map((s) => ({ speaker: s.name ?? names.get(s.from) ?? `agent ${s.from}`, text: s.text }));
}
