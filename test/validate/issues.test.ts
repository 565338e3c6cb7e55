import { describe, expect, it } from 'vitest';
import { formatIssues, ValidationError } from '../../src/validate/index.ts';

describe('formatIssues', () => {
  it('renders one line per issue, <root> for the root path', () => {
    const text = formatIssues([
      { path: '', message: 'expected object, received null', keyword: 'type' },
      { path: 'items[1].name', message: 'missing required property "name"', keyword: 'required' },
    ]);
    expect(text).toBe(
      '<root>: expected object, received null\nitems[1].name: missing required property "name"',
    );
  });

  it('renders nothing for no issues', () => {
    expect(formatIssues([])).toBe('');
  });
});

describe('ValidationError', () => {
  it('is an Error named ValidationError whose message formats its issues', () => {
    const issues = [
      { path: 'a', message: 'expected string, received number 1', keyword: 'type', value: 1 },
    ];
    const error = new ValidationError(issues);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ValidationError');
    expect(error.issues).toEqual(issues);
    expect(error.message).toBe('a: expected string, received number 1');
  });
});
