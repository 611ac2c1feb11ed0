import type { AgentBuild, AgentDefinition } from '../../src/agent/index.js';

/**
 * The definition a build was made from: the build without its code hash, so
 * that `defineAgent({ ...definitionOf(build), ... })` hashes the changed code
 * afresh instead of carrying the old hash along.
 */
export function definitionOf(build: AgentBuild): AgentDefinition {
  const { codeHash: _codeHash, ...definition } = build;
  return definition;
}
