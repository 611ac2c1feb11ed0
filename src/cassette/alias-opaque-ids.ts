import type { Message, MessagePart, ProviderPart } from '../conversation/index.js';
import { isJsonObject } from '../json/index.js';

type Family = 'tool_use' | 'signature' | 'redacted' | 'provider';

/**
 * The positional aliases of one run's opaque values, numbered per family in
 * conversation order: the first tool-call id seen is `tool_use#0`, the second
 * `tool_use#1`, and so on.
 */
export class AliasTable {
  private readonly aliases = new Map<string, string>();
  private readonly counts: Record<Family, number> = { tool_use: 0, signature: 0, redacted: 0, provider: 0 };

  /** The alias of `value`, minting the next one when it is new. */
  aliasOf(family: Family, value: string): string {
    const key = `${family}:${value}`;
    let alias = this.aliases.get(key);
    if (alias === undefined) {
      alias = `${family}#${this.counts[family]++}`;
      this.aliases.set(key, alias);
    }
    return alias;
  }

  /** The alias of `value` if it has one. */
  find(family: Family, value: string): string | undefined {
    return this.aliases.get(`${family}:${value}`);
  }
}

/**
 * Replaces the opaque values a provider mints afresh on every call with
 * positional aliases, so that two runs asking the same thing hash the same.
 * Messages must be passed in conversation order.
 */
export function aliasOpaqueIds(message: Message, table: AliasTable): Message {
  const content = message.content.map((part): MessagePart => {
    switch (part.type) {
      case 'tool_use':
        return { ...part, id: table.aliasOf('tool_use', part.id) };
      case 'thinking':
        return { ...part, signature: table.aliasOf('signature', part.signature) };
      case 'tool_result': {
        const alias = table.find('tool_use', part.toolUseId);
        if (alias === undefined) return part;
        return { ...part, toolUseId: alias };
      }
      case 'redacted_thinking':
        return { ...part, data: table.aliasOf('redacted', part.data) };
      case 'provider':
        return aliasProviderBlock(part, table);
      case 'text':
        return part;
    }
  });
  // A part with an alias is a new object; the message is copied only if one of its parts was.
  const changed = content.some((part, i) => part !== message.content[i]);
  return changed ? { role: message.role, content } : message;
}

/** Registers the opaque values of `message` without building its aliased copy (used on restore). */
export function registerOpaqueIds(message: Message, table: AliasTable): void {
  for (const part of message.content) {
    if (part.type === 'tool_use') table.aliasOf('tool_use', part.id);
    else if (part.type === 'thinking') table.aliasOf('signature', part.signature);
    else if (part.type === 'redacted_thinking') table.aliasOf('redacted', part.data);
    else if (part.type === 'provider') registerProviderBlock(part, table);
  }
}

function registerProviderBlock(part: ProviderPart, table: AliasTable): void {
  if (typeof part.block.id === 'string') table.aliasOf('provider', part.block.id);
  if (typeof part.block.encrypted_content === 'string') table.aliasOf('redacted', part.block.encrypted_content);
  // In the order aliasProviderBlock mints them: a restored table must number what comes next as a fresh one does.
  const { container } = part.block;
  if (isJsonObject(container) && typeof container.id === 'string') table.aliasOf('provider', container.id);
}

// A provider's own block (a server tool's call and its result, a reasoning item) names its call by `id`, refers
// to it by `tool_use_id`, and may carry its reasoning encrypted (`encrypted_content`), all minted afresh on every
// call as a tool-use id or redacted reasoning is: aliased by the same positional rule.
function aliasProviderBlock(part: ProviderPart, table: AliasTable): MessagePart {
  const { id, tool_use_id: toolUseId, encrypted_content: encrypted } = part.block;
  const alias = typeof id === 'string' ? table.aliasOf('provider', id) : undefined;
  const refers = typeof toolUseId === 'string' ? table.find('provider', toolUseId) : undefined;
  const sealed = typeof encrypted === 'string' ? table.aliasOf('redacted', encrypted) : undefined;
  // A code-execution container a turn ran in (Anthropic's envelope) is minted per conversation too.
  const { container } = part.block;
  const boxId = isJsonObject(container) && typeof container.id === 'string' ? container.id : undefined;
  const boxed =
    boxId === undefined || !isJsonObject(container)
      ? undefined
      : { ...container, id: table.aliasOf('provider', boxId) };
  if (alias === undefined && refers === undefined && sealed === undefined && boxed === undefined) return part;
  return {
    ...part,
    block: {
      ...part.block,
      ...(alias === undefined ? {} : { id: alias }),
      ...(refers === undefined ? {} : { tool_use_id: refers }),
      ...(sealed === undefined ? {} : { encrypted_content: sealed }),
      ...(boxed === undefined ? {} : { container: boxed }),
    },
  };
}
