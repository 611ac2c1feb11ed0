import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import type { JSONSchema7, ToolSet } from 'ai';
import type { Session } from '../../../src/wrap/index.js';
import type { LoopOptions } from './anthropic-claim-loop.js';
import type { claimTools } from './claim-world.js';
import { CLAIM_SYSTEM, CLAIM_TOOL_DEFINITIONS, LOOP_MODEL } from './claim-world.js';

/** The claims tools as an AI SDK tool set. */
function toolSet(tools: ReturnType<typeof claimTools>): ToolSet {
  const run = {
    fetch_claim: tools.fetch_claim,
    ocr_document: tools.ocr_document,
    estimate_repair: tools.estimate_repair,
  };
  return Object.fromEntries(
    CLAIM_TOOL_DEFINITIONS.map((definition) => [
      definition.name,
      tool({
        description: definition.description,
        inputSchema: jsonSchema<Record<string, string | number>>(definition.inputSchema as JSONSchema7),
        execute: (input: Record<string, string | number>) => run[definition.name as keyof typeof run](input),
      }),
    ]),
  );
}

/**
 * The AI SDK's own multi-step loop: `generateText` (or `streamText`) with
 * tools and a stop condition, over `@ai-sdk/anthropic`, its model wrapped by
 * `wrapLanguageModel` with the session's middleware and its tools by
 * `session.aiSdkTools`. forkpoint drives none of it.
 */
export async function aiSdkClaimLoop(
  session: Session,
  url: string,
  tools: ReturnType<typeof claimTools>,
  options: LoopOptions,
): Promise<string> {
  const model = wrapLanguageModel({
    model: createAnthropic({ baseURL: `${url}/v1`, apiKey: 'test-key' })(LOOP_MODEL),
    middleware: session.aiSdk(),
  });
  const settings = {
    model,
    system: options.system ?? CLAIM_SYSTEM,
    prompt: 'Triage claim CLM-91077.',
    tools: session.aiSdkTools(toolSet(tools), { readOnly: ['fetch_claim', 'ocr_document', 'estimate_repair'] }),
    stopWhen: stepCountIs(10),
    maxRetries: 0,
    maxOutputTokens: 1024,
  };
  if (options.stream !== true) return (await generateText(settings)).text;
  const result = streamText(settings);
  for await (const part of result.fullStream) options.onEvent?.(part);
  return result.text;
}
