export { createSession, openSession, type AiSdkTool, type Session, type SessionEnding } from './session.js';
export {
  SESSION_MODES,
  type ForkPrefixSession,
  type RecordSession,
  type ReplaySession,
  type SessionLoop,
  type SessionMode,
  type SessionOptions,
} from './session-options.js';
export {
  replayDivergenceIn,
  type SessionResult,
  type WrappedForkResult,
  type WrappedRecordResult,
  type WrappedReplayResult,
} from './session-result.js';
export type { AnthropicMiddleware, FetchFunction, MiddlewareRequest } from './session-wire.js';
export type { AiSdkMiddleware, AiSdkWrapOptions } from './ai-sdk-middleware.js';
export type { ToolFunction, WrapToolOptions } from './wrapped-tools.js';
export { RecordedToolError } from './recorded-tool-error.js';
