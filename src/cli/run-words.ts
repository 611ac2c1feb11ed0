import type { RunWords } from '../web/index.js';
import { formatEnding } from './output/format-ending.js';
import { headline, styleFor } from '../text/index.js';
import { summarizersFor } from './commands/scenario-of-run.js';

// Pages colour by their own means; the words are the CLI's, without its terminal colours.
const PLAIN = styleFor({ isTTY: false }, {});

/**
 * The CLI's words for runs of these scenarios, for the web view and reports:
 * each run's headline as `show` prints it, each step as a line of `show`, and
 * how a run ended after its status (the page shows the status by glyph, word and colour).
 */
export async function runWordsFor(scenarios: readonly (string | null)[]): Promise<RunWords> {
  const summarizerOf = await summarizersFor(scenarios);
  return {
    headline: (run) => headline(run, PLAIN),
    step: (run, step) => summarizerOf(run.scenario).step(step),
    ending: (run) => {
      const text = formatEnding(run, PLAIN, summarizerOf(run.scenario));
      return text.startsWith(run.status) ? text.slice(run.status.length).replace(/^: /, '') : text;
    },
  };
}
