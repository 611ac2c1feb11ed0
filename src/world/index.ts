export type { ModelProvider, ToolHandler, World } from './world.js';
