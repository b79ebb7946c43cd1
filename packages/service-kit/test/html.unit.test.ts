import { escapeHtml, styleElement } from '../src/html';

describe('escapeHtml', () => {
  it('turns each of the five markup characters into its entity', () => {
    expect(escapeHtml('&')).toBe('&amp;');
    expect(escapeHtml('<')).toBe('&lt;');
    expect(escapeHtml('>')).toBe('&gt;');
    expect(escapeHtml('"')).toBe('&quot;');
    expect(escapeHtml("'")).toBe('&#39;');
  });

  it('leaves every other character of the first 0x3000 code points as it is', () => {
    for (let code = 0; code < 0x3000; code++) {
      const char = String.fromCharCode(code);
      if ('&<>"\''.includes(char)) continue;
      expect(escapeHtml(char)).toBe(char);
    }
    expect(escapeHtml('£1,250,000 — Ōtautahi 🏠')).toBe('£1,250,000 — Ōtautahi 🏠');
  });

  it('escapes an ampersand once, so an entity in the text shows as typed', () => {
    expect(escapeHtml('&amp; &lt;')).toBe('&amp;amp; &amp;lt;');
  });

  it('makes markup and attribute breakouts plain text', () => {
    expect(escapeHtml('<script>alert("x")</script>')).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;',
    );
    expect(escapeHtml(`" onload='x'`)).toBe('&quot; onload=&#39;x&#39;');
  });

  it('shows numbers as text and nothing for null or undefined', () => {
    expect(escapeHtml(1250000)).toBe('1250000');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
  });
});

describe('styleElement', () => {
  it('carries the nonce the gateway sent, escaped, and none when there was none', () => {
    expect(styleElement('p{color:red}', 'abc123')).toBe('<style nonce="abc123">p{color:red}</style>');
    expect(styleElement('p{}', '"><script>')).toBe('<style nonce="&quot;&gt;&lt;script&gt;">p{}</style>');
    expect(styleElement('p{}', undefined)).toBe('<style>p{}</style>');
    expect(styleElement('p{}', ['a', 'b'])).toBe('<style>p{}</style>');
  });
});
