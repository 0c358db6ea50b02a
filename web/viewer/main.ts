import type { AgentDetail, ViewModel } from '../../src/cli/commands/view/view-types.ts';
import { agentPanel } from './agent-panel.ts';
import { knowsClass, knowsColour, knowsLabels } from './knows.ts';
import { lineChart } from './line-chart.ts';
import { agentAt, drawNetwork } from './network-canvas.ts';
import { colourOf } from './palette.ts';

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

function renderCharts(ui: UiState): void {
  const { model, j } = ui;
  const item = model.regions[ui.region]?.name ?? '';
  const lines = Object.entries(model.metrics)
    .filter(([k]) => k.startsWith(`${item}.`) && !/fraction|\.new$/.test(k))
    .map(([name, values]) => ({ name, values }));
  $('curves').innerHTML = lines.length
    ? lineChart('curve-chart', model.ticks, lines, j)
    : '<p>No per-tick metrics for this region.</p>';
  const a = model.asymmetry[0];
  $('asymmetry').innerHTML = a
    ? lineChart(
        'asymmetry-chart',
        a.ticks,
        [
          { name: `only ${a.a}`, values: a.onlyA },
          { name: `only ${a.b}`, values: a.onlyB },
          { name: 'both', values: a.both },
          { name: 'neither', values: a.neither },
        ],
        j,
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
  const canvas = $<HTMLCanvasElement>('network');
  canvas.addEventListener('click', (ev) => {
    const rect = canvas.getBoundingClientRect();
    const agent = agentAt(canvas, ui.model, ev.clientX - rect.left, ev.clientY - rect.top);
    if (agent !== null) void select(ui, agent);
  });
}

async function start(): Promise<void> {
  const model = (await (await fetch('/api/model')).json()) as ViewModel;
  const ui: UiState = { model, j: 0, region: 0, mode: 'state', selected: null, detail: null, timer: null };
  header(model);
  wire(ui);
  render(ui);
  document.body.dataset.ready = 'true';
}

void start();
