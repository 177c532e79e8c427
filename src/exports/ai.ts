// `longship/ai`: Longship as tools for the Vercel AI SDK (docs/ai-sdk.md). It imports `ai`, an
// optional peer dependency: only this entry does.

export type { FindHit, ToolLimits, ToolsLongship } from '../ai/tool-actions.js';
export {
  type LongshipToolName,
  type LongshipToolSet,
  type LongshipToolsOptions,
  longshipToolNames,
  longshipTools,
} from '../ai/tools.js';
