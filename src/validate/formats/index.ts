/**
 * `validate/formats`: the formats `compile` asserts when `CompileOptions.formats` is
 * true. Hand-written checks, no dependency: see docs/decisions/013. Any other format
 * stays an annotation. The files: `date-time.ts`, `email.ts`, `hostname.ts` (with
 * `punycode.ts` for internationalized names), `ip.ts`, `uri.ts`, `pointers.ts` (JSON
 * Pointers) and `identifiers.ts` (`uuid`, `regex`).
 *
 * May import: nothing outside the room (its checks depend on nothing, not even
 * `src/internal/`). The compiler's `keywords/strings.ts` reads `FORMATS` from this file.
 */
import { isDate, isDateTime, isDuration, isTime } from './date-time.ts';
import { isEmail } from './email.ts';
import { isHostname } from './hostname.ts';
import { isRegex, isUuid } from './identifiers.ts';
import { isIpv4, isIpv6 } from './ip.ts';
import { isJsonPointer, isRelativeJsonPointer } from './pointers.ts';
import { isUri, isUriReference } from './uri.ts';

export const FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  'date-time': isDateTime,
  date: isDate,
  time: isTime,
  duration: isDuration,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uri: isUri,
  'uri-reference': isUriReference,
  uuid: isUuid,
  'json-pointer': isJsonPointer,
  'relative-json-pointer': isRelativeJsonPointer,
  regex: isRegex,
};
