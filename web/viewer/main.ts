import type { AgentDetail, ViewModel } from '../../src/cli/commands/view/view-types.ts';
import { agentPanel } from './agent-panel.ts';
import { knowsClass, knowsColour, knowsLabels } from './knows.ts';
import { lineChart } from './line-chart.ts';
import { agentAt, drawNetwork } from './network-canvas.ts';
import { colourOf, usePalette } from './palette.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

interface UiState {
  model: ViewModel;
  /** Index into model.ticks. */
  j: number;
  region: number;
  mode: 'state' | 'knows';
  selected: number | null;
  detail: AgentDetail | null;
  timer: number | null;
}

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function nodeColour(ui: UiState): (k: number) => string {
  const { model, j, region } = ui;
  if (ui.mode === 'knows') return (k) => knowsColour(knowsClass(model, k, model.ticks[j]));
  const row = model.states[region]?.[j] ?? '';
  return (k) => colourOf(row.charCodeAt(k) - 48);
}

function renderCounts(ui: UiState): void {
  const { model, j, region } = ui;
  if (ui.mode === 'knows') {
    const labels = knowsLabels(model);
    const counts = labels.map(() => 0);
    for (let k = 0; k < model.nodes.length; k++) counts[knowsClass(model, k, model.ticks[j])]++;
    $('legend').innerHTML = labels
      .map((c, i) => `<span><i style="background:${knowsColour(i)}"></i>${esc(c)}</span>`)
      .join('');
    $('counts').innerHTML =
      `<tr><th>class</th><th>agents at tick ${model.ticks[j]}</th></tr>${labels.map((c, i) => `<tr data-state="${esc(c)}"><td>${esc(c)}</td><td>${counts[i]}</td></tr>`).join('')}`;
    return;
  }
  const r = model.regions[region];
  if (!r) return;
  const counts = r.states.map(() => 0);
  const row = model.states[region][j];
  for (let k = 0; k < row.length; k++) counts[row.charCodeAt(k) - 48]++;
  $('legend').innerHTML = r.states
    .map((s, i) => `<span><i style="background:${colourOf(i)}"></i>${esc(s)}</span>`)
    .join('');
  const shown = model.sampled ? ` (${model.nodes.length} drawn agents)` : '';
  $('counts').innerHTML =
    `<tr><th>${esc(r.name)}</th><th>agents at tick ${model.ticks[j]}${shown}</th></tr>${r.states.map((s, i) => `<tr data-state="${esc(s)}"><td>${esc(s)}</td><td>${counts[i]}</td></tr>`).join('')}`;
}

/** One chart per metric panel (a declared group, or one metric), titled, with axis titles. */
function renderCharts(ui: UiState): void {
  const { model, j } = ui;
  const charts = model.panels.map((p) => {
    const lines = p.lines.map((l) => ({
      name: l.label,
      key: l.key,
      colour: l.colour,
      values: model.metrics[l.key] ?? [],
    }));
    return `<section class="panel" data-panel="${esc(p.id)}"><h3>${esc(p.title)}</h3>${lineChart(`chart-${p.id}`, model.ticks, lines, j, { x: 'tick', y: p.unit })}</section>`;
  });
  $('curves').innerHTML = charts.length ? charts.join('') : '<p>The log has no per-tick metrics.</p>';
  const a = model.asymmetry[0];
  $('asymmetry').innerHTML = a
    ? lineChart(
        'asymmetry-chart',
        a.ticks,
        [
          { name: `only ${a.a}`, values: a.onlyA, colour: knowsColour(1) },
          { name: `only ${a.b}`, values: a.onlyB, colour: knowsColour(2) },
          { name: 'both', values: a.both, colour: knowsColour(3) },
          { name: 'neither', values: a.neither, colour: knowsColour(0) },
        ],
        j,
        { x: 'tick', y: 'share of agents' },
      )
    : '<p>No asymmetry: the log has no decodable snapshot with two items.</p>';
}

function render(ui: UiState): void {
  $('tick-label').textContent = `tick ${ui.model.ticks[ui.j]}`;
  drawNetwork($<HTMLCanvasElement>('network'), ui.model, nodeColour(ui), ui.selected);
  renderCounts(ui);
  renderCharts(ui);
  $('agent').innerHTML = ui.detail
    ? agentPanel(ui.model, ui.detail, ui.j)
    : '<p>Click an agent in the network.</p>';
}

async function select(ui: UiState, agent: number): Promise<void> {
  const res = await fetch(`/api/agent/${agent}`);
  if (!res.ok) return;
  ui.selected = agent;
  ui.detail = (await res.json()) as AgentDetail;
  render(ui);
  document.body.dataset.agent = String(agent);
}

function togglePlay(ui: UiState): void {
  const button = $('play');
  if (ui.timer !== null) {
    window.clearInterval(ui.timer);
    ui.timer = null;
    button.textContent = 'play';
    return;
  }
  button.textContent = 'pause';
  ui.timer = window.setInterval(() => {
    if (ui.j >= ui.model.ticks.length - 1) return togglePlay(ui);
    ui.j++;
    $<HTMLInputElement>('scrubber').value = String(ui.j);
    render(ui);
  }, 400);
}

function header(model: ViewModel): void {
  $('title').textContent = `grapevine viewer: ${model.world.id} seed ${model.seed}`;
  $('run').textContent =
    `${model.log}: ${model.world.id}@${model.world.version}, ${model.size} agents, ${model.ticks.length} ticks, log level ${model.level}, ${model.complete ? 'complete' : 'incomplete'}, digest ${model.digest}`;
  $('notes').innerHTML = model.notes.map((n) => `<li>${esc(n)}</li>`).join('');
}

function wire(ui: UiState): void {
  const scrubber = $<HTMLInputElement>('scrubber');
  scrubber.max = String(ui.model.ticks.length - 1);
  scrubber.addEventListener('input', () => {
    ui.j = Number(scrubber.value);
    render(ui);
  });
  const region = $<HTMLSelectElement>('region');
  region.innerHTML = ui.model.regions.map((r, i) => `<option value="${i}">${esc(r.name)}</option>`).join('');
  region.addEventListener('change', () => {
    ui.region = Number(region.value);
    render(ui);
  });
  const mode = $<HTMLSelectElement>('mode');
  mode.addEventListener('change', () => {
    ui.mode = mode.value === 'knows' ? 'knows' : 'state';
    render(ui);
  });
  $('play').addEventListener('click', () => togglePlay(ui));
  wireLayout(ui);
  const canvas = $<HTMLCanvasElement>('network');
  canvas.addEventListener('click', (ev) => {
    const rect = canvas.getBoundingClientRect();
    const agent = agentAt(canvas, ui.model, ev.clientX - rect.left, ev.clientY - rect.top);
    if (agent !== null) void select(ui, agent);
  });
}

/** Positions on a circle in agent order, as the server's circle layout. */
function circle(count: number): { x: number[]; y: number[] } {
  const a = (k: number) => (2 * Math.PI * k) / Math.max(1, count) - Math.PI / 2;
  return {
    x: Array.from({ length: count }, (_, k) => 0.5 + 0.45 * Math.cos(a(k))),
    y: Array.from({ length: count }, (_, k) => 0.5 + 0.45 * Math.sin(a(k))),
  };
}

/** The layout select: the server's layout (force or circle) or a circle in agent order. */
function wireLayout(ui: UiState): void {
  const served = { x: ui.model.x, y: ui.model.y };
  const select = $<HTMLSelectElement>('layout');
  const names = ui.model.layout === 'circle' ? ['circle'] : [ui.model.layout, 'circle'];
  select.innerHTML = names.map((n) => `<option value="${n}">${n}</option>`).join('');
  select.addEventListener('change', () => {
    const at = select.value === ui.model.layout ? served : circle(ui.model.nodes.length);
    ui.model.x = at.x;
    ui.model.y = at.y;
    render(ui);
  });
}

async function start(): Promise<void> {
  const model = (await (await fetch('/api/model')).json()) as ViewModel;
  usePalette(model.stateColours);
  const ui: UiState = { model, j: 0, region: 0, mode: 'state', selected: null, detail: null, timer: null };
  header(model);
  wire(ui);
  render(ui);
  document.body.dataset.ready = 'true';
}

void start();
