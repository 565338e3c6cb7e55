/** The session's tokens: the durable kernel's rule (`src/internal/durable/tokens.ts`; workflows use it too). */
export { hashToken, isToken, newToken } from '../../internal/durable/index.ts';
