import { describe, expect, it } from 'vitest';
import { identityLine, readIdentity } from '../../../src/ingest/summary/document-identity.js';

/** The cover of an annual report, as a PDF's first page reads once converted. */
const annual = (year: number) =>
  [
    'UNITED STATES SECURITIES AND EXCHANGE COMMISSION',
    'FORM 10-K',
    'ANNUAL REPORT PURSUANT TO SECTION 13 OF THE EXCHANGE ACT',
    `For the fiscal year ended December 31, ${year}`,
    'ACME WIDGETS CORPORATION',
    'Common Stock traded on the Example Stock Exchange, Inc.',
    'Acme Widgets makes widgets. Acme Widgets sells them in 40 countries.',
  ].join('\n');

describe('readIdentity', () => {
  it('reads an annual report’s company, fiscal year and form from its cover, not a file name', () => {
    const identity = readIdentity({ title: 'report', headings: ['UNITED STATES'], text: annual(2018) });
    expect(identity).toEqual({
      entity: ['ACME WIDGETS CORPORATION'],
      period: ['FY2018', 'December 31 2018'],
      kind: ['Form 10-K', 'annual report'],
    });
    expect(identityLine(identity)).toBe(
      'ACME WIDGETS CORPORATION · Form 10-K, annual report · FY2018, December 31 2018',
    );
  });

  it('counts a year that ends in a month’s first week with the month before', () => {
    // A 52–53-week year: the fiscal year 2022 that ended on January 1, 2023.
    const text = annual(2018).replace('December 31, 2018', 'January 1, 2023');
    expect(readIdentity({ title: '', headings: [], text }).period[0]).toBe('FY2022');
  });

  it('reads the fiscal quarter of a quarterly report from the longer periods reported beside it', () => {
    const text = [
      'FORM 10-Q',
      'QUARTERLY REPORT',
      'For the quarterly period ended December 31, 2022',
      'Beta Foods plc',
      'Condensed statement of income. Three Months Ended December 31, 2022. Six Months Ended December 31, 2022.',
      'Beta Foods sells food. Beta Foods has a fiscal year that ends on June 30.',
    ].join('\n');
    const identity = readIdentity({ title: '', headings: [], text });
    // The second quarter of the fiscal year that ends in June 2023.
    expect(identity.period).toEqual(['Q2 FY2023', 'December 31 2022']);
    expect(identity.kind).toEqual(['Form 10-Q', 'quarterly report']);
    expect(identity.entity).toEqual(['Beta Foods plc']);
  });

  it('reads the date of a report that covers no period', () => {
    const text =
      'FORM 8-K\nCURRENT REPORT\nDate of Report (Date of earliest event reported): July 1, 2022\nGamma Ltd';
    const identity = readIdentity({ title: '', headings: [], text });
    expect(identity.period).toEqual(['July 1 2022']);
    expect(identity.kind).toEqual(['Form 8-K', 'current report']);
  });

  it('reads a syllabus’s course code and term, and a chat’s speakers', () => {
    const syllabus = readIdentity({
      title: 'CHEM 122 Syllabus',
      headings: ['Grading'],
      text: 'General Chemistry II, Fall 2022. Lectures on Tuesdays. Textbook: Chemistry, Wiley Inc.',
    });
    expect(syllabus).toEqual({ entity: ['CHEM 122'], period: ['Fall 2022'], kind: ['syllabus'] });
    const lines = [
      '**Ana**: hi',
      '**Ben**: hello',
      '**Ana**: how was it?',
      '**Ben**: fine',
      '**Ana**: I start at Initech Inc. on Monday',
      '**Ben**: yes',
    ];
    const chat = readIdentity({ title: 'Chat History', headings: ['Session 1'], text: lines.join('\n') });
    expect(chat.entity).toEqual(['Ana', 'Ben']);
    expect(chat.kind).toEqual(['conversation']);
  });

  it('says nothing where the front names nothing', () => {
    const identity = readIdentity({ title: 'notes', headings: [], text: 'some thoughts about the garden' });
    expect(identity).toEqual({ entity: [], period: [], kind: [] });
    expect(identityLine(identity)).toBe('');
  });
});
