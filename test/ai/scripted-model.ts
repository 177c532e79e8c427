// A language model for tests that answers from a script, through the AI SDK's own mock: each step
// either calls tools or says a text. No network.
import { MockLanguageModelV4 } from 'ai/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

export type Step = { calls: { toolName: string; input: unknown }[] } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A mock model that answers `steps` in order; `doGenerateCalls` holds what each step was sent. */
export function scriptedModel(steps: Step[]): MockLanguageModelV4 {
  const results = steps.map((step, index): GenerateResult => {
    if ('text' in step) {
      return {
        content: [{ type: 'text', text: step.text }],
        finishReason: finish('stop'),
        usage,
        warnings: [],
      };
    }
    const content = step.calls.map((call, n) => ({
      type: 'tool-call' as const,
      toolCallId: `call-${index}-${n}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    }));
    return { content, finishReason: finish('tool-calls'), usage, warnings: [] };
  });
  return new MockLanguageModelV4({ doGenerate: results });
}

function finish(unified: 'stop' | 'tool-calls') {
  return { unified, raw: unified };
}
