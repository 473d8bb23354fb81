/** The page's stylesheet: system fonts, a light theme, tables that stay readable at 1,400 rows. */
export const PAGE_STYLE = `
:root { --fg: #1d2330; --muted: #5f6b7a; --line: #e3e7ed; --bg: #f6f7f9; --card: #fff; --accent: #2f5fa7;
  --good: #1e7b46; --good-bg: #e7f5ec; --bad: #b3261e; --bad-bg: #fbeaea; --part-bg: #fff6de; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
code, pre { font: 12px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
header.top { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap;
  padding: 10px 24px; background: #1d2330; color: #dfe5ee; }
header.top .home { color: #fff; font-weight: 600; font-size: 15px; }
header.top .meta { color: #aab4c3; font-size: 12px; }
header.top nav { display: flex; gap: 14px; } header.top nav a { color: #cfd8e6; font-size: 13px; }
main { max-width: 1320px; margin: 0 auto; padding: 8px 24px 48px; }
h2 { font-size: 18px; margin: 28px 0 10px; } h2 .count { font-weight: normal; color: var(--muted); font-size: 14px; }
h3 { font-size: 15px; margin: 0 0 6px; }
.note, .sub { color: var(--muted); margin: 0 0 10px; }
.warn { color: var(--bad); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 14px; }
.card, figure.chart, section.detail, .outcome { background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
.card { padding: 14px 16px; }
.figures { display: flex; flex-wrap: wrap; gap: 8px 22px; }
.figure .label, .outcome .label { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.figure .value { font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
.figure[data-figure="steps"] .value, .figure[data-figure="tool_calls"] .value, .figure[data-figure="cost_usd"] .value,
.figure[data-figure="wall_s"] .value { font-size: 15px; font-weight: 500; padding-top: 4px; }
.figure .interval { font-size: 11px; color: var(--muted); font-variant-numeric: tabular-nums; }
.charts { display: flex; flex-wrap: wrap; gap: 14px; }
figure.chart { margin: 0; padding: 10px 12px; width: fit-content; max-width: 100%; overflow-x: auto; }
/* The caption wraps to the chart's width instead of widening the figure. */
figure.chart figcaption { margin-bottom: 4px; width: 0; min-width: 100%; } figure.chart figcaption span { color: var(--muted); }
figure.chart svg { display: block; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; background: var(--card); font-variant-numeric: tabular-nums; }
th, td { padding: 5px 9px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #eef1f5; font-weight: 600; font-size: 12px; white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; }
table.aggregate { border: 1px solid var(--line); width: 100%; font-size: 12.5px; }
table.aggregate td { white-space: nowrap; }
/* Headers wrap and intervals sit under their figure: the widest family's table fits 1,400 px. */
table.aggregate th { white-space: normal; vertical-align: bottom; }
table.aggregate td .ci { display: block; font-size: 11px; color: var(--muted); }
table.aggregate th, table.aggregate td { padding: 5px 7px; }
table.aggregate tr.total td { font-weight: 600; background: #f2f5fa; border-top: 2px solid #cfd6e0; }
table.aggregate tr.subtotal td { background: #fafbfc; font-weight: 500; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 8px; }
.filters input, .filters select { font: inherit; padding: 5px 8px; border: 1px solid #c9d0da; border-radius: 6px; background: #fff; }
.filters input { min-width: 280px; }
table.trials { width: 100%; border: 1px solid var(--line); font-size: 13px; }
table.trials thead th { cursor: pointer; user-select: none; }
table.trials thead th:hover { background: #e2e7ee; }
table.trials tbody tr:hover td { background: #f3f6fb; }
td.good { color: var(--good); font-weight: 600; } td.bad { color: var(--bad); }
tr.status-timed_out td[data-key="status"], tr.status-agent_error td[data-key="status"] { color: #8a5a00; }
tr.status-infra_error td { color: var(--muted); }
.more { text-align: center; } .more button { font: inherit; padding: 6px 16px; }
.crumbs { margin: 18px 0 0; }
#trial-page h2 { margin-top: 6px; word-break: break-all; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; background: #e8ecf2; font-size: 12px; }
.badge.status-completed { background: var(--good-bg); color: var(--good); }
.badge.status-timed_out, .badge.status-agent_error { background: var(--part-bg); color: #8a5a00; }
.badge.status-infra_error { background: var(--bad-bg); color: var(--bad); }
.trial-head { display: flex; gap: 18px; align-items: stretch; flex-wrap: wrap; margin: 10px 0 14px; }
.outcome { display: grid; grid-template-columns: auto auto; gap: 2px 14px; padding: 10px 16px; align-items: baseline; }
.outcome .value { font-size: 22px; font-weight: 700; }
.outcome .verdict { grid-column: 1 / -1; font-weight: 600; }
.outcome.good { border-left: 5px solid var(--good); } .outcome.good .verdict { color: var(--good); }
.outcome.bad { border-left: 5px solid var(--bad); } .outcome.bad .verdict { color: var(--bad); }
.trial-head .figures { align-content: center; }
section.detail { padding: 12px 14px; margin: 12px 0; }
table.detail-table { width: 100%; font-size: 12.5px; }
table.detail-table td.text { white-space: pre-wrap; word-break: break-word; }
table.detail-table td.col-preview { font: 11.5px/1.35 ui-monospace, Menlo, Consolas, monospace; max-width: 560px; color: #333; }
table.detail-table td.col-preview div { max-height: 9.6em; overflow: auto; }
table.detail-table td.col-tool, table.detail-table td.col-type, table.detail-table td.col-model, table.detail-table td.col-source { white-space: nowrap; }
table.detail-table td.col-value { min-width: 90px; }
table.detail-table td.col-args { font: 11.5px/1.35 ui-monospace, Menlo, Consolas, monospace; max-width: 280px; }
table.detail-table tr.ok td:first-child { box-shadow: inset 4px 0 var(--good); }
table.detail-table tr.partial td:first-child { box-shadow: inset 4px 0 #e0a800; }
table.detail-table tr.miss td:first-child { box-shadow: inset 4px 0 var(--bad); }
table.detail-table tr.muted td { color: var(--muted); }
table.facts th { background: none; font-weight: 500; color: var(--muted); }
details { margin: 12px 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; }
details summary { cursor: pointer; font-weight: 600; }
details.analysis table { font-size: 12.5px; border: 1px solid var(--line); margin-top: 6px; }
details.analysis td { white-space: nowrap; }
details pre { white-space: pre-wrap; word-break: break-word; max-height: 480px; overflow: auto; }
section.conversation { background: #fbfcfd; }
article.step { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin: 8px 0; padding: 8px 12px; }
article.step.model { border-left: 4px solid var(--accent); }
article.step.tool { border-left: 4px solid #9aa7b8; margin-left: 28px; }
article.step.tool.failed, article.step.model.failed { border-left-color: var(--bad); }
article.step header { font-size: 12.5px; margin-bottom: 4px; } article.step header .facts { color: var(--muted); }
article.step .tool-name { font-weight: 600; }
article.step pre { white-space: pre-wrap; word-break: break-word; margin: 2px 0 6px; max-height: 560px; overflow: auto; background: #f6f8fa; padding: 6px 8px; border-radius: 5px; }
.msg { display: grid; grid-template-columns: 84px 1fr; gap: 8px; padding: 4px 0; border-top: 1px dashed var(--line); }
.msg .role { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); padding-top: 4px; }
.msg.response .role { color: var(--accent); font-weight: 600; }
.msg.role-error .role { color: var(--bad); }
.msg .parts { min-width: 0; }
.msg.response pre.text { background: #eef4fc; }
.part-label { font-size: 11px; color: var(--muted); } .part.tool-call pre { background: #f3f0fa; } .part.tool-result.error pre { background: var(--bad-bg); }
details.fold, details.reasoning, details.system, details.log-tables { margin: 4px 0; padding: 4px 10px; }
details.fold summary, details.reasoning summary, details.system summary { font-weight: normal; color: #333; }
details.fold summary .size { color: var(--muted); }
details.reasoning { background: #fffbea; border-color: #f0e2a8; } details.reasoning pre { background: transparent; font-style: italic; }
.step-note { color: #8a5a00; margin: 2px 0; font-size: 12.5px; }
.cut { font-size: 11px; color: var(--muted); }
.muted { color: var(--muted); }
button.jump { font: inherit; font-size: 12px; border: 1px solid #c9d0da; background: #f2f5fa; color: var(--accent); border-radius: 9px; padding: 0 7px; cursor: pointer; }
.flash { outline: 3px solid #e0a800; }
ul.files { columns: 2; margin: 4px 0; }
.crumbs #trial-position { color: var(--muted); }
#jobs-table td:nth-child(2) { white-space: nowrap; }
.path-figure svg text { font-family: inherit; }
`;
