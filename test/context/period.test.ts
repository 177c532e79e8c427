import { describe, expect, it } from 'vitest';
import { fiscalYearOf, parseDate, periodWords } from '../../src/context/period.js';

describe('periods', () => {
  it('writes the ways questions name a period as documents’ words', () => {
    expect(periodWords('What is the FY2018 capital expenditure?')).toEqual(['FY2018']);
    expect(periodWords('capex in fiscal 2018 and FY 2019')).toEqual(['FY2018', 'FY2019']);
    expect(periodWords('liability as of Q2 of FY2023 close')).toEqual(['FY2023', 'Q2']);
    expect(periodWords('revenue in Q22023')).toEqual(['Q2', '2023']);
    expect(periodWords('As of FY2023Q1, why')).toEqual(['FY2023', 'Q1']);
    expect(periodWords('the second quarter results')).toEqual(['Q2']);
    expect(periodWords('the 8k filing dated 1st July 2022')).toEqual(['July 1 2022']);
    expect(periodWords('as of May 26, 2023')).toEqual(['May 26 2023']);
    expect(periodWords('a question with 10 items and Q10 cells')).toEqual([]);
  });

  it('reads dates either way round', () => {
    expect(parseDate('ended July 2, 2023')).toEqual({ year: 2023, month: 7, day: 2 });
    expect(parseDate('on 8 May, 2023')).toEqual({ year: 2023, month: 5, day: 8 });
    expect(parseDate('no date')).toBeUndefined();
  });

  it('gives the fiscal year a period ends in', () => {
    expect(fiscalYearOf({ year: 2018, month: 12, day: 31 })).toBe(2018);
    expect(fiscalYearOf({ year: 2023, month: 7, day: 29 }, 2)).toBe(2024);
    expect(fiscalYearOf({ year: 2023, month: 7, day: 2 }, 2)).toBe(2023);
  });
});
