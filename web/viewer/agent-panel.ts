import type { AgentDetail, ViewModel } from '../../src/cli/commands/view/view-types.ts';

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The agent's memory at the end of `tick`: the last recorded change at or before it. */
function memoryAt(d: AgentDetail, tick: number): unknown {
  let mem: unknown = null;
  for (const [t, m] of d.memory) if (t <= tick) mem = m;
  return mem;
}

function statesAt(model: ViewModel, agent: number, j: number): string {
  const k = model.nodes.indexOf(agent);
  return model.regions
    .map((r, i) => `${esc(r.name)}: <b>${esc(r.states[model.states[i][j].charCodeAt(k) - 48] ?? '?')}</b>`)
    .join(', ');
}

function observations(d: AgentDetail, tick: number): string {
  const rows = d.observed
    .filter((o) => o.tick <= tick)
    .flatMap((o) =>
      o.messages.map(
        (m) =>
          `<li>t=${o.tick}: from ${m.from} ${esc(m.kind)}${m.item ? ` ${esc(m.item)}` : ''}${m.payload === undefined ? '' : ` ${esc(JSON.stringify(m.payload))}`} (sent t=${m.sentAt})</li>`,
      ),
    );
  return `<h3>Observed up to tick ${tick} (${rows.length} messages)</h3><ul id="observations">${rows.join('')}</ul>`;
}

function encounters(d: AgentDetail, tick: number, level: string): string {
  if (d.encounters === null)
    return `<h3>Encounters</h3><p class="needs-full">Not in this log (level ${esc(level)}): write the run with <code>--log full</code> to see who told whom, message by message.</p>`;
  const rows = d.encounters
    .filter((e) => Number(e.t) <= tick)
    .map(
      (e) =>
        `<li>t=${e.t}: ${e.from} → ${e.to} ${esc(String(e.kind))} ${esc(String(e.item ?? ''))}${e.heard ? ' (heard)' : ''}</li>`,
    );
  return `<h3>Encounters up to tick ${tick} (${rows.length})</h3><ul id="encounters">${rows.join('')}</ul>`;
}

function provenance(d: AgentDetail, tick: number): string {
  const rows = Object.entries(d.provenance).map(([item, path]) => {
    const known = path.filter((hop) => hop.at <= tick);
    if (path.length === 0 || path[0].at > tick) return `<li>${esc(item)}: not heard by tick ${tick}</li>`;
    const chain = known.map((hop) => `agent ${hop.agent} (t=${hop.at})`).join(' ← ');
    return `<li>${esc(item)}: ${chain}${known.length === path.length ? ' (origin)' : ''}</li>`;
  });
  return `<h3>Provenance (who told it, back to the origin)</h3><ul id="provenance">${rows.join('')}</ul>`;
}

function llmCalls(d: AgentDetail, tick: number): string {
  const calls = d.llm.filter((c) => c.tick <= tick);
  if (d.llm.length === 0) return '';
  const body = calls
    .map(
      (c) =>
        `<details><summary>t=${c.tick} ${esc(c.purpose)}</summary><pre>${esc(JSON.stringify(c.messages, null, 1))}</pre><p>reply:</p><pre>${esc(c.reply ?? '(failed)')}</pre></details>`,
    )
    .join('');
  return `<h3>LLM prompts and replies up to tick ${tick} (${calls.length})</h3><div id="llm">${body}</div>`;
}

/** What `grapevine inspect` shows for an agent at a tick, plus its encounters, LLM calls and provenance. */
export function agentPanel(model: ViewModel, d: AgentDetail, j: number): string {
  const tick = model.ticks[j];
  return [
    `<p id="agent-head">Agent <b>${d.agent}</b> at the end of tick ${tick}: ${statesAt(model, d.agent, j)}</p>`,
    `<h3>Memory</h3><pre id="memory">${esc(JSON.stringify(memoryAt(d, tick)))}</pre>`,
    provenance(d, tick),
    observations(d, tick),
    encounters(d, tick, model.level),
    llmCalls(d, tick),
  ].join('\n');
}
