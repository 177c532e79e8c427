/**
 * The words an analyst asks with, for what a financial statement's caption and row labels say
 * (docs/guide/documents.md, "Tables"): a question asks for "capital expenditure" from "the cash flow
 * statement", the filing's row reads "Purchases of property, plant and equipment" under
 * "Consolidated Statements of Cash Flows". A table's part is indexed under these names too, so the
 * two meet. Standard US GAAP and IFRS line items only; the stored text is never changed.
 */

const TERMS: readonly (readonly [RegExp, string])[] = [
  [/statements?\s+of\s+cash\s+flows?/i, 'cash flow statement'],
  [/statements?\s+of\s+(?:operations|income|earnings)|income\s+statements?/i, 'income statement'],
  [/balance\s+sheets?|statements?\s+of\s+financial\s+position/i, 'balance sheet'],
  [/statements?\s+of\s+(?:changes\s+in\s+)?(?:stockholders|shareholders)['’]?\s+equity/i, 'equity statement'],
  [/comprehensive\s+income/i, 'comprehensive income statement'],
  [
    /purchases?\s+of\s+property|capital\s+spending|additions\s+to\s+property|payments\s+for\s+(?:acquisition\s+of\s+)?property/i,
    'capital expenditure capex',
  ],
  [/net\s+cash\s+(?:provided|used|from).*operating/i, 'operating cash flow cash from operations'],
  [/net\s+cash\s+(?:provided|used|from).*investing/i, 'investing cash flow'],
  [/net\s+cash\s+(?:provided|used|from).*financing/i, 'financing cash flow'],
  [/property,?\s+plant\s+and\s+equipment/i, 'PP&E fixed assets'],
  [/cost\s+of\s+(?:sales|goods\s+sold|revenues?|products\s+sold)/i, 'COGS cost of goods sold'],
  [/^(?:total\s+)?(?:net\s+)?(?:sales|revenues?|net\s+revenues?)$/i, 'revenue sales top line'],
  [/depreciation|amortization/i, 'D&A depreciation and amortization'],
  [/^inventor(?:y|ies)|total\s+inventor/i, 'inventory'],
  [/accounts\s+receivable|trade\s+receivables/i, 'receivables'],
  [/accounts\s+payable|trade\s+payables/i, 'payables'],
  [/total\s+current\s+assets/i, 'current assets working capital'],
  [/total\s+current\s+liabilities/i, 'current liabilities working capital'],
  [/dividends\s+paid|cash\s+dividends/i, 'dividends'],
  [
    /(?:purchases?|repurchases?)\s+of\s+(?:treasury|common)\s+stock|share\s+repurchases?/i,
    'buybacks share repurchases',
  ],
  [/operating\s+income|income\s+from\s+operations/i, 'operating income operating profit EBIT'],
  [/gross\s+(?:profit|margin)/i, 'gross profit gross margin'],
  [/net\s+(?:income|earnings)\b/i, 'net income net profit earnings'],
  [/interest\s+expense/i, 'interest expense'],
  [/(?:long-term\s+debt|borrowings)/i, 'debt'],
  [/total\s+assets/i, 'total assets'],
  [/total\s+(?:stockholders|shareholders)['’]?\s+equity|total\s+equity/i, 'equity'],
];

/**
 * The analyst's names for a table's caption and row labels, once each, in the order of `TERMS`.
 *
 * @example
 * statementTerms(['Consolidated Statement of Cash Flows', 'Purchases of property, plant and equipment']);
 * // ['cash flow statement', 'capital expenditure capex', 'PP&E fixed assets']
 */
export function statementTerms(labels: readonly string[]): string[] {
  return TERMS.filter(([pattern]) => labels.some((label) => pattern.test(label))).map(([, terms]) => terms);
}
