export type { ModelProvider, ToolHandler, World, WorldFactory } from './world.js';
