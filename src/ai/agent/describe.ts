/**
 * How the agent's messages describe a received value: the package's one rule
 * (`src/internal/describe-value.ts`, decision 067), under the agent's short name.
 */
export { describeValue as describe } from '../../internal/describe-value.ts';
