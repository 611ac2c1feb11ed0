/**
 * The stylesheet of every page, served at `/assets/forkpoint.css` and inlined
 * in reports. System fonts only (a page loads nothing from anywhere); light
 * and dark follow the reader's setting; provenance and status always pair
 * their colour with a glyph and a word, so nothing is told by colour alone.
 */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --fg: #1d2125; --muted: #5b6570; --bg: #fff; --panel: #f5f6f8; --line: #d7dbe0;
  --accent: #7a3fd1; --rec: #4b5563; --live: #0b6bcb; --ovr: #a3410d; --inh: #6b7280; --sim: #0f766e;
  --ok: #17663a; --bad: #b42318; --warn: #8a5a00; --mark: #fff3c4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --muted: #a0a8b2; --bg: #15181c; --panel: #1e2227;
  --line: #353b43; --accent: #b794f6; --rec: #b0b8c2; --live: #6cb4ff; --ovr: #ffab70; --inh: #9aa3ad;
  --sim: #5eead4; --ok: #6ee7a0; --bad: #ff8a80; --warn: #f5c451; --mark: #4a3f12; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
code, .mono, .json, td.hash { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
a { color: var(--live); }
a:focus-visible, summary:focus-visible, button:focus-visible, [tabindex]:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
header.top { display: flex; gap: 1.5rem; align-items: baseline; padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); background: var(--panel); }
.brand { font-weight: 700; color: var(--fg); text-decoration: none; }
.top-nav { display: flex; gap: 1rem; }
.json-link { margin-left: auto; font-size: 12px; }
.banner { margin: 0; padding: .4rem 1.2rem; background: var(--mark); border-bottom: 1px solid var(--line); }
main { padding: 1rem 1.2rem 3rem; max-width: 1500px; }
h1 { font-size: 1.25rem; margin: .2rem 0 .4rem; }
h2 { font-size: 1.05rem; margin: 1.6rem 0 .5rem; }
.headline { color: var(--muted); margin: 0 0 .6rem; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; }
td.num, th.num { text-align: right; }
tbody tr:hover { background: var(--panel); }
tr.step-row { content-visibility: auto; contain-intrinsic-size: auto 32px; }
tr.open-step, tr:target { background: var(--mark); }
.summary { overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 3px; border: 1px solid currentColor; font-size: 12px; white-space: nowrap; }
.prov-recorded { color: var(--rec); }
.prov-live { color: var(--live); }
.prov-override { color: var(--ovr); border-width: 2px; font-weight: 600; }
.prov-inherited { color: var(--inh); border-style: dotted; }
.prov-simulated { color: var(--sim); border-style: dashed; }
.prov-human { color: var(--accent); border-style: double; border-width: 3px; font-weight: 600; }
.decision { white-space: nowrap; font-weight: 600; }
.decision-approved { color: var(--ok); } .decision-rejected { color: var(--bad); }
.reviewer { font-weight: 600; overflow-wrap: anywhere; }
q.note { font-style: italic; overflow-wrap: anywhere; }
.panel.waiting { border-left: 4px solid var(--warn); }
code.command { user-select: all; }
.answered-otherwise { color: var(--muted); }
.status { white-space: nowrap; font-weight: 600; }
.status-completed { color: var(--ok); } .status-failed, .status-diverged { color: var(--bad); }
.status-running, .status-interrupted, .status-awaiting-approval { color: var(--warn); }
.mode { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 600; white-space: nowrap; }
.side-effect { color: var(--bad); font-weight: 600; }
.muted { color: var(--muted); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .7rem .9rem; margin: .6rem 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .4rem 0; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
form.filters { display: flex; flex-wrap: wrap; gap: .6rem; align-items: end; margin: .4rem 0 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: .15rem; }
input, select, button { font: inherit; padding: .2rem .4rem; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 4px; }
button { cursor: pointer; }
.pager { display: flex; gap: 1rem; align-items: center; margin: .6rem 0; }
.lineage ul { list-style: none; margin: 0; padding-left: 1.2rem; border-left: 1px dashed var(--line); }
.lineage > ul { padding-left: 0; border-left: 0; }
.lineage li { margin: .25rem 0; }
.lineage .here { font-weight: 700; }
.lineage .relation { color: var(--muted); }
.detail-row > td { background: var(--panel); }
.step-detail { display: grid; gap: .4rem; }
.step-detail > details > summary { font-weight: 600; cursor: pointer; }
.json ul { list-style: none; margin: 0; padding-left: 1.1rem; }
.json details > summary { cursor: pointer; list-style: none; display: inline; }
.json details > summary::before { content: "▸ "; color: var(--muted); }
.json details[open] > summary::before { content: "▾ "; }
.json details[open] > summary .jc { display: none; }
.json { color: var(--muted); }
.jk { color: var(--accent); } .js { color: var(--ok); white-space: pre-wrap; overflow-wrap: anywhere; }
.jn { color: var(--live); } .jc, .ji { color: var(--muted); }
.j-cut { color: var(--warn); font-style: italic; }
.expired { color: var(--warn); font-weight: 600; }
tr[data-first-divergence] { background: var(--mark); box-shadow: inset 4px 0 0 var(--accent); }
.divergence-mark { color: var(--accent); font-weight: 700; white-space: nowrap; }
.same-mark { color: var(--muted); }
.changes { margin: .3rem 0 0; padding: 0; list-style: none; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.changes del { color: var(--bad); text-decoration: line-through; } .changes ins { color: var(--ok); text-decoration: none; font-weight: 600; }
.changes del::before { content: "− "; } .changes ins::before { content: "+ "; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.outcome { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; }
.error-page .code { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 700; color: var(--bad); }
.legend { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; font-size: 12px; color: var(--muted); }
.bars text { fill: var(--fg); font-size: 12px; } .bars rect { fill: var(--accent); }
figure.chart { margin: .6rem 0 1rem; } figure.chart svg { max-width: 100%; height: auto; }
.verdict-good { color: var(--ok); } .verdict-bad { color: var(--bad); }
ul.counts, ul.run-list { list-style: none; margin: 0; padding: 0; }
ul.ids { display: flex; flex-wrap: wrap; gap: .2rem .9rem; } ul.ids .here { font-weight: 700; }
tr.total td { font-weight: 600; border-top: 2px solid var(--line); }
@media (max-width: 900px) { .cols { grid-template-columns: 1fr; } }
@media print { header.top, .pager, form.filters { display: none; } }
`.trim();
