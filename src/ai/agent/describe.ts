/** A short description of a received value for error messages: the package's one rule. */
export { describe } from '../../internal/describe.ts';
