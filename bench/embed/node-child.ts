// One Node measurement in a fresh process, so that the first load is cold (transformers.js and
// onnxruntime-node not yet imported). argv: a NodeTask as JSON; prints `MEASUREMENT {json}`.
import { type MeasureRequest, measure } from './measure.js';
import { loadSentences } from './sentences.js';

export type NodeTask = Omit<MeasureRequest, 'texts'> & { sentences: number; corpus?: string };

const { sentences, corpus, ...request } = JSON.parse(process.argv[2]!) as NodeTask;
const { texts } = loadSentences(sentences, corpus);
console.log(`MEASUREMENT ${JSON.stringify(await measure({ ...request, texts }))}`);
