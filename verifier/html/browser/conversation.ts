/**
 * A trial's conversation (TrialDetail.conversation): model turns and tool calls in time order. Every text
 * in it came from the container or the model: each goes through esc() and nothing else reaches innerHTML.
 */
import type { ChatMessage, ChatPart, Conversation, ModelStep, ToolStep } from '../model.js';
import { esc, fmt } from './format.js';

/** A text longer than this (or with more lines) is folded: its first line shows, the rest on a click. */
const FOLD_CHARS = 600;
const FOLD_LINES = 12;

const cutNote = (cut: number | undefined): string => (cut ? '<span class="cut">… ' + esc(cut.toLocaleString('en-US')) + ' more characters in the raw file</span>' : '');

/** A text as a block: shown whole when short, else folded under its first line. */
function block(text: string, cls: string, label: string, cut?: number): string {
  const long = text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
  const body = '<pre class="' + cls + '">' + esc(text) + '</pre>' + cutNote(cut);
  if (!long) return (label ? '<div class="part-label">' + esc(label) + '</div>' : '') + body;
  const first = text.trim().split('\n')[0].slice(0, 140);
  return '<details class="fold"><summary>' + (label ? '<span class="part-label">' + esc(label) + '</span> ' : '') + esc(first) + ' <span class="size">(' + esc((text.length + (cut || 0)).toLocaleString('en-US')) + ' characters)</span></summary>' + body + '</details>';
}

function part(p: ChatPart): string {
  if (p.kind === 'reasoning') return '<details class="reasoning"><summary>reasoning (' + esc(p.text.length.toLocaleString('en-US')) + ' characters)</summary><pre>' + esc(p.text) + '</pre>' + cutNote(p.cut) + '</details>';
  if (p.kind === 'tool_call') return '<div class="part tool-call">' + block(p.text, 'args', 'calls ' + (p.name || '?'), p.cut) + '</div>';
  if (p.kind === 'tool_result') return '<div class="part tool-result' + (p.error ? ' error' : '') + '">' + block(p.text, 'result', p.error ? 'tool result (error)' : 'tool result', p.cut) + '</div>';
  return '<div class="part ' + esc(p.kind) + '">' + block(p.text, 'text', p.kind === 'other' ? 'other content' : '', p.cut) + '</div>';
}

function message(m: ChatMessage, cls: string): string {
  // Reasoning first and apart from what the model said.
  const ordered = m.parts.filter((p) => p.kind === 'reasoning').concat(m.parts.filter((p) => p.kind !== 'reasoning'));
  return '<div class="msg role-' + esc(m.role) + ' ' + cls + '"><div class="role">' + esc(m.role) + '</div><div class="parts">' + (ordered.map(part).join('') || '<span class="muted">(empty)</span>') + '</div></div>';
}

function modelStep(s: ModelStep): string {
  const facts = [
    s.model,
    s.input === null && s.output === null ? null : fmt(s.input, 'int') + ' in / ' + fmt(s.output, 'int') + ' out' + (s.cached ? ' (' + s.cached + ' cached)' : '') + ' tokens',
    s.cost === null ? null : fmt(s.cost, 'usd'),
    s.latency === null ? null : Math.round(s.latency) + ' ms',
    s.status === null ? null : 'HTTP ' + s.status,
  ].filter(Boolean);
  let html = '<article class="step model' + (s.status !== null && s.status >= 400 ? ' failed' : '') + '" id="turn-' + s.line + '" data-line="' + s.line + '">';
  html += '<header><strong>model turn ' + esc(s.turn === null ? '–' : s.turn) + '</strong> <span class="facts">' + esc(facts.join(' · ')) + '</span> <span class="muted">model_log.jsonl line ' + s.line + '</span></header>';
  if (s.note) html += '<p class="step-note">' + esc(s.note) + '</p>';
  if (s.system !== null) html += '<details class="system"><summary>system prompt (' + esc((s.system.length + (s.systemCut || 0)).toLocaleString('en-US')) + ' characters)</summary><pre>' + esc(s.system) + '</pre>' + cutNote(s.systemCut) + '</details>';
  if (s.tools) html += '<p class="muted tools-offered">tools offered: ' + esc(s.tools.join(', ')) + '</p>';
  if (s.earlier) html += '<p class="muted earlier">' + esc(s.earlier) + (s.earlier === 1 ? ' earlier message' : ' earlier messages') + ', shown above</p>';
  if (s.fresh) html += '<p class="muted earlier">a new context: this request does not repeat the previous one\'s messages</p>';
  html += s.messages.map((m) => message(m, 'sent')).join('');
  if (s.response) html += message(s.response, 'response');
  else if (s.recorded) html += '<p class="muted">(no answer recorded)</p>';
  return html + '</article>';
}

function toolStep(s: ToolStep): string {
  const stops = s.stops.map((n) => '<button type="button" class="jump" data-jump="stop-' + esc(n) + '">stop ' + esc(n) + '</button>').join(' ');
  let html = '<article class="step tool ' + (s.ok ? 'ok' : 'failed') + '" id="call-' + s.n + '" data-call="' + s.n + '">';
  html += '<header><strong>tool call #' + s.n + '</strong> <code class="tool-name">' + esc(s.tool) + '</code> <span class="' + (s.ok ? 'good' : 'bad') + '">' + (s.ok ? 'ok' : 'failed') + '</span>';
  html += ' <span class="facts">' + esc([s.latency === null ? null : Math.round(s.latency) + ' ms', s.source].filter(Boolean).join(' · ')) + '</span>';
  if (stops) html += ' <span class="serves">served ' + stops + '</span>';
  html += '</header>';
  if (s.note) html += '<p class="step-note">' + esc(s.note) + '</p>';
  html += block(s.args, 'args', 'arguments') + block(s.preview, 'result', 'result preview');
  return html + '</article>';
}

/** The conversation section. */
export function conversationHtml(c: Conversation): string {
  const models = c.steps.filter((s) => s.kind === 'model').length;
  const note =
    'Model turns (model_log.jsonl) and tool calls (tool_log.jsonl) in time order. Each turn shows what is new in its request and the answer; long texts are folded.' +
    (c.bounded ? ' Bounded for the page: ' + c.bounded + '.' : '');
  const steps = c.steps.map((s) => (s.kind === 'model' ? modelStep(s) : toolStep(s))).join('');
  return (
    '<section class="detail conversation" id="conversation"><h3>Conversation (' + models + ' of ' + c.modelLines + ' model turns, ' + (c.steps.length - models) + ' of ' + c.toolLines + ' tool calls)</h3><p class="note">' + esc(note) + '</p>' +
    (steps || '<p class="muted">Nothing was logged: no model traffic and no tool call went through the gateway.</p>') + '</section>'
  );
}
