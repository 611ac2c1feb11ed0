// The wrapped loop's bench (`npm run bench:wrap`, which builds first): a hand-written while loop over the real
// Anthropic SDK, whose `fetch` answers at once with canned Messages API bodies (no network, no emulator: the
// figure is what the session adds, not what HTTP costs), run for --turns turns (one model call and one tool
// call each, a 2 KB tool output, the last turn an answer) in three ways:
//   - bare: the loop with its own client and tool, no session;
//   - record: through a recording session over a SQLite file (each step committed as it happens);
//   - replay:strict: the same loop over that recording (the fake fetch must not be called: it throws if it is).
// It prints the wall time per turn of each, the session's overhead per turn (record and replay minus bare),
// and how the overhead grows with the conversation (the first and the last tenth of the turns). Each figure
// is the median of --rounds runs. Progress goes to stderr; stdout has a table, then one JSON line. Nothing is
// asserted. Options: --turns N (default 200), --rounds N (default 5).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { createSession } from '../dist/src/wrap/index.js';
import { sqliteStore } from '../dist/src/store/index.js';
import { fixed, formatTable, heading, informative, machine } from './bench/report.mjs';
import { median, msSince } from './bench/timing.mjs';

const { values } = parseArgs({ options: { turns: { type: 'string' }, rounds: { type: 'string' } } });
const turns = Number(values.turns ?? 200);
const rounds = Number(values.rounds ?? 5);
if (!Number.isInteger(turns) || turns < 10) throw new Error('--turns takes a whole number of at least 10');

const OUTPUT = { text: 'x'.repeat(2048) };
const messageOf = (turn) =>
  turn < turns - 1
    ? {
        id: `msg_${turn}_${Math.random()}`,
        type: 'message',
        role: 'assistant',
        model: 'bench-model',
        content: [{ type: 'tool_use', id: `toolu_${turn}_${Math.random()}`, name: 'look_up', input: { turn } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 100 + turn, output_tokens: 20 },
      }
    : {
        id: `msg_${turn}`,
        type: 'message',
        role: 'assistant',
        model: 'bench-model',
        content: [{ type: 'text', text: 'done' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 100 + turn, output_tokens: 5 },
      };

function cannedFetch() {
  let turn = 0;
  return async () =>
    new Response(JSON.stringify(messageOf(turn++)), { status: 200, headers: { 'content-type': 'application/json' } });
}

const refusingFetch = async () => {
  throw new Error('a strict replay reached the network');
};

// The loop, timing each turn; `session` wraps its client and its tool when given.
async function runLoop(fetch, session) {
  const client = new Anthropic({
    apiKey: 'bench',
    baseURL: 'http://127.0.0.1:9',
    maxRetries: 0,
    ...(session === undefined ? { fetch } : { fetch: session.fetch(fetch) }),
  });
  const tool = async () => OUTPUT;
  const lookUp = session === undefined ? tool : session.tool('look_up', tool, { readOnly: true });
  const messages = [{ role: 'user', content: 'Go.' }];
  const times = [];
  for (;;) {
    const started = process.hrtime.bigint();
    const reply = await client.messages.create({ model: 'bench-model', max_tokens: 256, messages });
    messages.push({ role: 'assistant', content: reply.content });
    const uses = reply.content.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) {
      times.push(msSince(started));
      return times;
    }
    const results = [];
    for (const use of uses)
      results.push({ type: 'tool_result', tool_use_id: use.id, content: JSON.stringify(await lookUp(use.input)) });
    messages.push({ role: 'user', content: results });
    times.push(msSince(started));
  }
}

const sum = (list) => list.reduce((total, value) => total + value, 0);
const tenth = (list, last) => {
  const size = Math.max(1, Math.floor(list.length / 10));
  return median(last ? list.slice(-size) : list.slice(0, size));
};

const folder = mkdtempSync(join(tmpdir(), 'forkpoint-bench-wrap-'));
const figures = { bare: [], record: [], replay: [], recordFirst: [], recordLast: [], replayFirst: [], replayLast: [] };
let bytes = 0;
try {
  await runLoop(cannedFetch()); // warm-up
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`round ${round + 1} of ${rounds}\n`);
    const bare = await runLoop(cannedFetch());
    const path = join(folder, `round-${round}.db`);
    const store = sqliteStore({ path });
    const recording = await createSession({ store, mode: 'record', agent: 'bench-loop' });
    const recorded = await runLoop(cannedFetch(), recording);
    const run = await recording.close();
    const replaying = await createSession({ store, mode: 'replay:strict', agent: 'bench-loop', source: run.runId });
    const replayed = await runLoop(refusingFetch, replaying);
    const replay = await replaying.close();
    if (replay.status !== 'completed') throw new Error(`the replay ended ${replay.status}`);
    await store.close();
    bytes = statSync(path).size;
    figures.bare.push(sum(bare) / turns);
    figures.record.push(sum(recorded) / turns);
    figures.replay.push(sum(replayed) / turns);
    figures.recordFirst.push(tenth(recorded, false) - tenth(bare, false));
    figures.recordLast.push(tenth(recorded, true) - tenth(bare, true));
    figures.replayFirst.push(tenth(replayed, false) - tenth(bare, false));
    figures.replayLast.push(tenth(replayed, true) - tenth(bare, true));
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const m = (name) => median(figures[name]);
const result = {
  turns,
  bare_ms_per_turn: fixed(m('bare'), 3),
  record_ms_per_turn: fixed(m('record'), 3),
  replay_ms_per_turn: fixed(m('replay'), 3),
  record_overhead_ms_per_turn: fixed(m('record') - m('bare'), 3),
  replay_overhead_ms_per_turn: fixed(m('replay') - m('bare'), 3),
  record_overhead_first_tenth_ms: fixed(m('recordFirst'), 3),
  record_overhead_last_tenth_ms: fixed(m('recordLast'), 3),
  replay_overhead_first_tenth_ms: fixed(m('replayFirst'), 3),
  replay_overhead_last_tenth_ms: fixed(m('replayLast'), 3),
  database_kib: fixed(bytes / 1024, 1),
};
console.log(machine());
console.log(
  formatTable([
    heading(`a while loop of ${turns} turns over the Anthropic SDK, one tool call each (median of ${rounds})`),
    informative('bare loop, ms per turn', result.bare_ms_per_turn),
    informative('recording session, ms per turn', result.record_ms_per_turn),
    informative('strict replay session, ms per turn', result.replay_ms_per_turn),
    informative('record overhead, ms per turn', result.record_overhead_ms_per_turn),
    informative('replay overhead, ms per turn', result.replay_overhead_ms_per_turn),
    heading('the overhead as the conversation grows (a turn of the first and of the last tenth, minus bare)'),
    informative('record, first tenth', result.record_overhead_first_tenth_ms),
    informative('record, last tenth', result.record_overhead_last_tenth_ms),
    informative('replay, first tenth', result.replay_overhead_first_tenth_ms),
    informative('replay, last tenth', result.replay_overhead_last_tenth_ms),
    informative('database after record and replay, KiB', result.database_kib),
  ]),
);
console.log(JSON.stringify(result));
