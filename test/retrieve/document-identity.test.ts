import { describe, expect, it } from 'vitest';
import { functionEmbedder } from '../../src/embed/function-embedder.js';
import { openLongship } from '../../src/engine.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';

/**
 * One company's annual report for a year: a cover page that says which, then sections that never
 * do. Both years' cash-flow sections show both years' columns, as filings do.
 */
function annualReport(year: number, capex: string): string {
  return [
    '# UNITED STATES',
    'FORM 10-K',
    'ANNUAL REPORT PURSUANT TO SECTION 13 OF THE EXCHANGE ACT',
    `For the fiscal year ended December 31, ${year}`,
    'ACME WIDGETS CORPORATION',
    '## Risk factors',
    'Competition, supply chains and currency exposure could harm the business and its results.',
    '## Cash flows',
    `Years ended December 31 ${year} ${year - 1}. ${capex}`,
  ].join('\n\n');
}

describe('a question that names its document', () => {
  it('ranks first the section of the document whose own front names the period, whatever its file name', async () => {
    const embedder = functionEmbedder({
      id: 'test/constant',
      dimensions: 4,
      embed: async (texts) => texts.map(() => new Float32Array([1, 0, 0, 0])),
    });
    const longship = await openLongship({ store: await openMemoryStore(), embedder });
    try {
      // The two tables differ only in their figures, and a tie goes to the first URI, the 2019 report's; the
      // vectors say nothing (all alike), so that only the words decide.
      const documents = [
        {
          path: 'filings/first/report.md',
          content: annualReport(2019, 'Capital expenditure 1,699 1,577.'),
        },
        { path: 'filings/second/report.md', content: annualReport(2018, 'Capital expenditure 1,577 1,373.') },
      ];
      await longship.addResource(documents, { maxTokens: 40, mergeBelow: 0 });
      await longship.waitProcessed();
      const second = 'viking://resources/filings/second/report.md';
      for (const question of [
        'What is the FY2018 capital expenditure of Acme?',
        'Capital expenditure of Acme in fiscal 2018',
      ]) {
        const { resources } = await longship.find(question, { limit: 3, filter: { kind: 'file' } });
        expect(resources[0]?.uri.startsWith(`${second}/`), question).toBe(true);
      }
      const node = await longship.store.node(second);
      expect(node?.kind).toBe('dir');
      expect(node?.meta.identity).toBe(
        'ACME WIDGETS CORPORATION · Form 10-K, annual report · FY2018, December 31 2018',
      );
    } finally {
      await longship.close();
    }
  });
});
