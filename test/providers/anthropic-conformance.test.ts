import { describeProviderConformance } from '../../src/testing/index.js';
import { aiSdkAnthropicSubject, anthropicSubject } from '../support/emulators/anthropic-subjects.js';

// The provider conformance suite on both adapters, each over its real SDK against the Messages API emulator.
describeProviderConformance('fromAnthropic over @anthropic-ai/sdk', anthropicSubject);
describeProviderConformance('fromAiSdk over @ai-sdk/anthropic', aiSdkAnthropicSubject);
