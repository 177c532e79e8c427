import { describe, expect, it } from 'vitest';
import { analyze, analyzeToken, tokenize } from '../../src/lexical/analyzer.js';

describe('tokenize', () => {
  it('keeps identifier-like runs whole and drops trailing punctuation', () => {
    expect(tokenize('Call fs.readFileSync() or see ERR_INVALID_ARG.')).toEqual([
      'Call',
      'fs.readFileSync',
      'or',
      'see',
      'ERR_INVALID_ARG',
    ]);
    expect(tokenize('v1.2.3, IL-6 and @types/node; std::vec')).toEqual([
      'v1.2.3',
      'IL-6',
      'and',
      'types/node',
      'std::vec',
    ]);
  });

  it('splits on Unicode punctuation and spaces and normalises compatibility forms', () => {
    expect(tokenize('ﬁnd\u00a0２０２４—café«naïve»')).toEqual(['find', '2024', 'café', 'naïve']);
  });
});

describe('analyzeToken', () => {
  it('gives an identifier whole, then its stemmed parts', () => {
    expect(analyzeToken('readFileSync')).toEqual(['readfilesync', 'read', 'file', 'sync']);
    expect(analyzeToken('ERR_INVALID_ARG')).toEqual(['err_invalid_arg', 'err', 'invalid', 'arg']);
    expect(analyzeToken('XMLHttpRequest2')).toEqual(['xmlhttprequest2', 'xml', 'http', 'request', '2']);
    expect(analyzeToken('E1234')).toEqual(['e1234', 'e', '1234']);
    expect(analyzeToken('parse_errors')).toEqual(['parse_errors', 'pars', 'error']);
  });

  it('keeps numbers and versions made of digits whole', () => {
    expect(analyzeToken('1.2.3')).toEqual(['1.2.3']);
    expect(analyzeToken('0.05')).toEqual(['0.05']);
    expect(analyzeToken('0x1F')[0]).toBe('0x1f');
  });

  it('drops stopword parts but never the whole identifier', () => {
    expect(analyzeToken('getTheThing')).toEqual(['getthething', 'get', 'thing']);
    expect(analyzeToken('the')).toEqual([]);
  });

  it('strips possessives and apostrophes', () => {
    expect(analyzeToken("user's")).toEqual(['user']);
    expect(analyzeToken('don’t')).toEqual(['dont']);
  });

  it('stems English words with Porter and leaves other scripts unstemmed', () => {
    expect(['running', 'runs', 'run'].map(analyzeToken)).toEqual([['run'], ['run'], ['run']]);
    expect(analyzeToken('Größen')).toEqual(['größen']);
  });

  it('indexes Chinese and Japanese as character pairs', () => {
    expect(analyzeToken('日本語')).toEqual(['日本', '本語']);
    expect(analyzeToken('abc日本')).toEqual(['abc', '日本']);
    expect(analyzeToken('字')).toEqual(['字']);
  });

  it('ignores runs too long to be words', () => {
    expect(analyzeToken('a'.repeat(200))).toEqual([]);
  });
});

describe('analyze', () => {
  it('lowercases, drops stopwords and stems', () => {
    expect(analyze('The runners are running to the station')).toEqual(['runner', 'run', 'station']);
  });

  it('is empty for text with no words', () => {
    expect(analyze('')).toEqual([]);
    expect(analyze(' — … ; ')).toEqual([]);
  });
});
