import type { Engine } from '../../engine/index.js';
import type { ForkpointError } from '../../errors/index.js';
import type { RunWords } from '../pages/run-words.js';

/** The port `forkpoint ui` listens on unless told otherwise. */
export const DEFAULT_UI_PORT = 4680;

/** What the view needs: the engine over the store it shows, and how runs read in words. */
export interface UiServerOptions {
  readonly engine: Engine;
  readonly words: (scenarios: readonly (string | null)[]) => Promise<RunWords>;
  /** The address to listen on: loopback (default 127.0.0.1) unless `allowRemote`. */
  readonly host?: string;
  /** The port (default {@link DEFAULT_UI_PORT}); 0 picks a free one. */
  readonly port?: number;
  /** Listen on an address other than loopback: asked for by name, since the view shows every payload. */
  readonly allowRemote?: boolean;
  /**
   * How an error reads on a page: by default its message, in the library's
   * words; the CLI gives its own, so a remedy names the command to run.
   */
  readonly describeError?: (error: ForkpointError) => string;
  /** Told of a request that failed inside forkpoint (a bug), with the error; the page says only its code. */
  readonly onInternalError?: (error: unknown) => void;
}
