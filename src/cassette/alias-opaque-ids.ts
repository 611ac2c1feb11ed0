import type { Message, MessagePart } from '../conversation/index.js';

type Family = 'tool_use' | 'signature';

/**
 * The positional aliases of one run's opaque values, numbered per family in
 * conversation order: the first tool-call id seen is `tool_use#0`, the second
 * `tool_use#1`, and so on.
 */
export class AliasTable {
  private readonly aliases = new Map<string, string>();
  private readonly counts: Record<Family, number> = { tool_use: 0, signature: 0 };

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
  }
}
