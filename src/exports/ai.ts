// `longship/ai`: Longship as tools for the Vercel AI SDK (docs/guide/ai-sdk.md). It imports `ai`, an
// optional peer dependency: only this entry does.

export {
  type DefaultToolName,
  type LongshipToolName,
  type LongshipToolSet,
  type LongshipToolsOptions,
  longshipToolNames,
  longshipTools,
} from '../ai/tools.js';
export type { ToolSession, ToolsLongship } from '../tools/tools-longship.js';
