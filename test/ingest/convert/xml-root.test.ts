import { describe, expect, it } from 'vitest';
import { rootElementText } from '../../../src/ingest/convert/xml-root.js';

describe('rootElementText', () => {
  it('cuts the first element out of what stands around it', () => {
    expect(rootElementText('<?xml version="1.0"?><a><b/></a><!-- x --><c/>')).toBe('<a><b/></a>');
    expect(rootElementText('<?xml version="1.0"?>\n<!DOCTYPE a><!-- c --><a x="1>2"/>tail')).toBe(
      '<a x="1>2"/>',
    );
    expect(rootElementText('<p:sld xmlns:p="u"><p:a/></p:sld></p:sld><p:sp/>')).toBe(
      '<p:sld xmlns:p="u"><p:a/></p:sld>',
    );
  });

  it('reads comments and CDATA as such, not as tags', () => {
    expect(rootElementText('<!--<x>--><r><![CDATA[</r>]]></r>tail')).toBe('<r><![CDATA[</r>]]></r>');
  });

  it('leaves an unclosed root to its end, and text without an element as it is', () => {
    expect(rootElementText('<a><b>')).toBe('<a><b>');
    expect(rootElementText('</z><a>x</a>')).toBe('<a>x</a>');
    expect(rootElementText('no xml')).toBe('no xml');
  });
});
