import type { ModelResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';

// Until the stream assembly lands.
export function neutralResponseOfAnthropicSse(_text: string): ModelResponse {
  throw new ForkpointError('INTERNAL', 'streams are not assembled yet');
}
export function chatResponseOfSse(_text: string): ModelResponse {
  throw new ForkpointError('INTERNAL', 'streams are not assembled yet');
}
export function storedGenerateResult(result: unknown): import('../json/index.js').JsonValue {
  return JSON.parse(JSON.stringify(result)) as import('../json/index.js').JsonValue;
}
export function revivedGenerateResult(json: import('../json/index.js').JsonValue): unknown {
  return json;
}
export function storedStreamParts(_parts: readonly unknown[]): import('../json/index.js').JsonValue {
  throw new ForkpointError('INTERNAL', 'streams are not assembled yet');
}
export function revivedStreamParts(_json: import('../json/index.js').JsonValue): unknown[] {
  throw new ForkpointError('INTERNAL', 'streams are not assembled yet');
}
export function neutralResultOfStreamParts(_model: unknown, _parts: readonly unknown[]): ModelResponse {
  throw new ForkpointError('INTERNAL', 'streams are not assembled yet');
}
