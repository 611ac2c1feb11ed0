import type { MessagePart } from '../../src/conversation/index.js';
import { createEngine } from '../../src/engine/index.js';
import type { JsonObject } from '../../src/json/index.js';
import { sqliteStore } from '../../src/store/index.js';
import type { World } from '../../src/world/index.js';
import { createRefundDesk, refundBuild } from './refund-agent.js';
import { finalTurn, testAgent } from './test-agents.js';

/** Markup that would run if a page let it through as markup. */
export const SCRIPT = '<script>alert(1)</script>';
/** An image whose error handler would run if a page let it through as markup. */
export const IMAGE = `<img src=x onerror=alert(2)>`;
/** Both, as a page shows them when it shows them as text. */
export const ESCAPED_SCRIPT = '&lt;script&gt;alert(1)&lt;/script&gt;';
export const ESCAPED_IMAGE = '&lt;img src=x onerror=alert(2)&gt;';

/** A side-effecting tool whose very name is markup: it reaches a page as `kind#index` and in the lineage. */
export const MARKUP_TOOL = '<img src=x onerror=alert(3)>';

/** A label the build gives echo's results in failure signatures: markup, as a build's code could write it. */
export const MARKUP_LABEL = '<svg onload=alert(4)>';
export const ESCAPED_LABEL = '&lt;svg onload=alert(4)&gt;';

/** The ids of the recorded run and its fork. */
export const XSS_RUN = '0000feed0001';
export const XSS_FORK = '0000feed0002';

/** A reviewer whose name is markup: `approve --by` takes any name without control characters. */
export const MARKUP_REVIEWER = '<img src=x onerror=alert(5)>';
export const ESCAPED_REVIEWER = '&lt;img src=x onerror=alert(5)&gt;';
/** The reviewer's note, and a fork's note that rejects instead: markup both. */
export const MARKUP_NOTE = '<script>alert(6)</script>';
export const ESCAPED_NOTE = '&lt;script&gt;alert(6)&lt;/script&gt;';
export const MARKUP_REASON = '<svg onload=alert(7)>';
export const ESCAPED_REASON = '&lt;svg onload=alert(7)&gt;';

/** A refund-desk run a reviewer named {@link MARKUP_REVIEWER} approved with {@link MARKUP_NOTE}, and its fork that rejects. */
export const XSS_APPROVED = '0000feed0003';
export const XSS_REJECTED = '0000feed0004';

const agent = testAgent({
  tools: [
    { name: 'echo', description: 'echoes its input', inputSchema: { type: 'object' }, readOnly: true },
    { name: MARKUP_TOOL, description: 'writes a record', inputSchema: { type: 'object' }, readOnly: false },
  ],
  classifyObservation: (observation) => (observation.tool === 'echo' ? MARKUP_LABEL : null),
});

let ids = 0;
const turn = (text: string, calls: readonly { name: string; input: JsonObject }[]) => {
  const content: MessagePart[] = [{ type: 'text', text }];
  for (const call of calls)
    content.push({ type: 'tool_use', id: `toolu_${ids++}`, name: call.name, input: call.input });
  return {
    id: `msg_${ids++}`,
    model: 'test-model',
    content,
    stopReason: 'tool_use' as const,
    usage: { inputTokens: 1, outputTokens: 1 },
  };
};

// The model says markup, the tool answers markup, the model calls the tool whose name is markup, then ends.
const world: World = {
  model: {
    respond: (request) => {
      const turns = request.messages.filter((message) => message.role === 'assistant').length;
      if (turns === 0) return Promise.resolve(turn(`I will look ${SCRIPT}`, [{ name: 'echo', input: { q: IMAGE } }]));
      if (turns === 1) return Promise.resolve(turn(`now ${IMAGE}`, [{ name: MARKUP_TOOL, input: { note: SCRIPT } }]));
      return Promise.resolve(finalTurn(JSON.stringify({ ok: true, note: `${SCRIPT} ${IMAGE}` })));
    },
  },
  tools: {
    echo: () => ({ text: SCRIPT, image: IMAGE }),
    [MARKUP_TOOL]: () => ({ written: IMAGE }),
  },
};

/**
 * Writes, into the SQLite file `db`, a run whose model text and tool results
 * hold {@link SCRIPT} and {@link IMAGE}, and a fork of it at the echo's result
 * (step 2) whose override holds them too and which calls the markup-named
 * tool live, so that the compare page diffs markup and the lineage lists it;
 * and a refund approved by a reviewer whose name and note are markup, with a
 * fork that rejects it for a reason that is markup too.
 */
export async function writeXssRuns(db: string): Promise<void> {
  const store = sqliteStore({ path: db });
  const engine = createEngine({ store, clock: () => new Date('2026-03-04T09:00:00.000Z') });
  try {
    await engine.record({ agent, world, input: { task: IMAGE }, runId: XSS_RUN, tier: 'synthetic' });
    await engine.fork({
      parentRunId: XSS_RUN,
      atStep: 2,
      override: { kind: 'tool-result', output: { text: IMAGE, image: SCRIPT } },
      agent,
      world,
      runId: XSS_FORK,
      sideEffects: { default: 'refuse', tools: { [MARKUP_TOOL]: 'live' } },
    });
    // Synthetic: a view at today's clock shows its payloads, the answers among them.
    const supervised = refundBuild('supervised');
    const desk = createRefundDesk();
    await engine.record({
      agent: supervised,
      world: desk.world,
      input: { orderId: 'ORD-1' },
      runId: XSS_APPROVED,
      tier: 'synthetic',
    });
    await engine.approve({
      runId: XSS_APPROVED,
      agent: supervised,
      world: desk.world,
      by: MARKUP_REVIEWER,
      note: MARKUP_NOTE,
    });
    await engine.fork({
      parentRunId: XSS_APPROVED,
      atStep: 6,
      agent: supervised,
      world: desk.world,
      runId: XSS_REJECTED,
      override: { kind: 'approval', approved: false, note: MARKUP_REASON },
    });
  } finally {
    await store.close();
  }
}
