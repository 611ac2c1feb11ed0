import type { ModelProvider, World, WorldOptions } from '../../../src/index.js';
import { ForkpointError, routeModels } from '../../../src/index.js';
import { fromAnthropic, type AnthropicClient } from '../../../src/entries/anthropic.js';
import { fromOpenAIChat, type OpenAIChatClient } from '../../../src/entries/openai.js';
import type { SupportEmulator } from '../emulator/support-emulator.js';
import { startSupportEmulator } from '../emulator/support-emulator.js';
import { supportTools } from './support-tools.js';

/** The one switch to the real providers: set, the SDK clients talk to Anthropic and OpenAI with the keys in the environment. */
export const LIVE_SWITCH = 'FORKPOINT_SUPPORT_DESK_LIVE';

/** What the world reads of the environment: the switch and the API keys. */
export type SupportEnv = Readonly<Record<string, string | undefined>>;

/** Where {@link openSupportWorld} reads its switch and keys (default: the process's environment), and who is told of its emulator. */
export interface SupportWorldHooks {
  readonly env?: SupportEnv;
  /** Told of the emulator once it has started, e.g. to count the requests it answered. */
  readonly onEmulator?: (emulator: SupportEmulator) => void;
}

// Loaded on the first call, so that the scenario loads (for `--help`, say) where the SDKs are not installed.
async function sdk<T>(name: string, load: () => Promise<{ default: T }>): Promise<T> {
  try {
    return (await load()).default;
  } catch (error) {
    throw new ForkpointError(
      'SCENARIO_LOAD_FAILED',
      `support-desk talks to its model through ${name}, which is not installed: npm install ${name}`,
      { cause: error },
    );
  }
}

function apiKey(env: SupportEnv, name: string): string {
  const key = env[name];
  if (key === undefined || key === '')
    throw new ForkpointError('USAGE', `${LIVE_SWITCH} is set, so support-desk needs ${name} in the environment`);
  return key;
}

/** A value made on first use (the emulator started, the SDK loaded), then reused. */
function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * The support desk on day `at`: its model behind the real Anthropic and OpenAI
 * SDKs (`claude-*` and `gpt-*` model ids), pointed at a local emulator of
 * both APIs that the world starts on 127.0.0.1 at its first model call and
 * stops when it is closed. With `FORKPOINT_SUPPORT_DESK_LIVE=1`, the same
 * clients talk to the real APIs instead, with `ANTHROPIC_API_KEY` (required
 * as the world opens) and `OPENAI_API_KEY` (required at the first `gpt-*`
 * call): only the base URL and the key change.
 */
export function openSupportWorld(options: WorldOptions, hooks: SupportWorldHooks = {}): World {
  const env = hooks.env ?? process.env;
  const live = env[LIVE_SWITCH] === '1';
  // Checked as the world opens, so that a missing key is refused before any run is written.
  const keys = live
    ? { anthropic: apiKey(env, 'ANTHROPIC_API_KEY'), openai: env.OPENAI_API_KEY }
    : { anthropic: 'offline-emulator', openai: 'offline-emulator' };
  let emulator: Promise<SupportEmulator> | undefined;
  const baseURL = async (): Promise<string | undefined> => {
    if (live) return undefined;
    emulator ??= startSupportEmulator(options.seed).then((started) => {
      hooks.onEmulator?.(started);
      return started;
    });
    return (await emulator).url;
  };
  // Typed by what the adapters call on them, as a user's own client is.
  const anthropicClient = onFirstUse(async (): Promise<AnthropicClient> => {
    const Anthropic = await sdk('@anthropic-ai/sdk', () => import('@anthropic-ai/sdk'));
    const url = await baseURL();
    return new Anthropic({ apiKey: keys.anthropic, maxRetries: 2, ...(url === undefined ? {} : { baseURL: url }) });
  });
  const openaiClient = onFirstUse(async (): Promise<OpenAIChatClient> => {
    const OpenAI = await sdk('openai', () => import('openai'));
    const key = keys.openai ?? apiKey(env, 'OPENAI_API_KEY');
    const url = await baseURL();
    return new OpenAI({ apiKey: key, maxRetries: 2, ...(url === undefined ? {} : { baseURL: `${url}/v1` }) });
  });
  // The adapters are made now, over clients that make the SDKs' own on their first call: an adapter answers
  // what it would leave out of a request (a fork to the other provider asks) without the SDK or the emulator.
  const anthropic: ModelProvider = fromAnthropic({
    messages: { create: async (body) => (await anthropicClient()).messages.create(body) },
  });
  const openai: ModelProvider = fromOpenAIChat({
    chat: { completions: { create: async (body) => (await openaiClient()).chat.completions.create(body) } },
  });
  return {
    model: routeModels({ 'claude-': anthropic, 'gpt-': openai }),
    tools: supportTools(options.at),
    worldAt: options.at,
    seed: options.seed,
    close: async () => {
      if (emulator !== undefined) await (await emulator).close();
    },
  };
}
