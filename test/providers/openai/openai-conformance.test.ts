import { describeProviderConformance } from '../../../src/testing/index.js';
import { openAIChatSubject, openAIResponsesSubject } from '../../support/emulators/openai-emulator.js';

// Both adapters over the real `openai` SDK, each against its endpoint's emulator.
describeProviderConformance('OpenAI Chat Completions (fromOpenAIChat)', openAIChatSubject);
describeProviderConformance('OpenAI Responses (fromOpenAIResponses)', openAIResponsesSubject);
