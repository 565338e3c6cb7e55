/**
 * The formats `compile` asserts when `CompileOptions.formats` is true. Hand-written
 * checks, no dependency: see docs/decisions/013. Any other format stays an annotation.
 */
export const FORMATS: Readonly<Record<string, (value: string) => boolean>> = {};
