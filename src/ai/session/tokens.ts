/** The session's tokens: the shared rule of `src/internal/tokens.ts` (workflows use it too). */
export { hashToken, isToken, newToken } from '../../internal/tokens.ts';
