import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../../src/validate/formats/index.ts';
import { compile } from '../../../src/validate/index.ts';

const examples: Record<string, [valid: string[], invalid: string[]]> = {
  'date-time': [
    ['2024-02-29T23:59:60Z', '1985-04-12T23:20:50.52+01:00'],
    ['2023-02-29T00:00:00Z', '2024-01-01 00:00:00Z'],
  ],
  date: [['2024-02-29'], ['2024-13-01', '24-01-01']],
  time: [
    ['08:30:06Z', '23:20:50.52-08:00'],
    ['08:30:06', '24:00:00Z'],
  ],
  duration: [
    ['P4DT12H30M5S', 'P2W', 'PT36H'],
    ['P', 'P1Y2W', 'PT0.5S'],
  ],
  email: [
    ['joe.bloggs@example.com', '"joe bloggs"@example.com'],
    ['joe..bloggs@example.com', '@example.com'],
  ],
  hostname: [
    ['www.example.com', 'xn--9n2bp8q.xn--9t4b11yi5a'],
    ['-bad.com', 'example.', 'xn--X'],
  ],
  ipv4: [['192.168.0.1'], ['256.0.0.1', '01.2.3.4']],
  ipv6: [
    ['::1', '2001:db8::7', '::ffff:1.2.3.4'],
    ['1::2::3', '12345::', 'fe80::1%eth0'],
  ],
  uri: [
    ['https://example.com/a?b#c', 'urn:isbn:0451450523'],
    ['/relative', 'http://exa mple.com'],
  ],
  'uri-reference': [
    ['/relative', '#frag', 'https://example.com'],
    ['\\\\server', 'http://[bad'],
  ],
  uuid: [['2eb8aa08-aa98-11ea-b4aa-73b441d16380'], ['2eb8aa08aa9811eab4aa73b441d16380']],
  'json-pointer': [
    ['', '/a~1b/0'],
    ['a', '/~2'],
  ],
  'relative-json-pointer': [
    ['0', '1/a', '2#'],
    ['-1', '01'],
  ],
  regex: [['^[a-z]+$'], ['(']],
};

describe('FORMATS', () => {
  it.each(Object.entries(examples))(
    '%s accepts valid and rejects invalid strings',
    (format, [valid, invalid]) => {
      const test = FORMATS[format];
      for (const value of valid) expect(test(value), value).toBe(true);
      for (const value of invalid) expect(test(value), value).toBe(false);
    },
  );

  it('is an annotation by default and an assertion with formats: true', () => {
    const schema = { type: 'string', format: 'ipv4' };
    expect(compile(schema).safeParse('not an ip').success).toBe(true);
    expect(compile(schema, { formats: true }).safeParse('not an ip').success).toBe(false);
    expect(compile(schema, { formats: true }).safeParse(42).success).toBe(false);
    expect(compile({ format: 'ipv4' }, { formats: true }).safeParse(42).success).toBe(true);
  });

  it('leaves unknown formats as annotations even when asserting', () => {
    expect(compile({ format: 'x-custom' }, { formats: true }).safeParse('anything').success).toBe(
      true,
    );
  });
});
