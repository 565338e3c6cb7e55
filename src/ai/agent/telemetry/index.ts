/**
 * The agent's tracing (OpenTelemetry, GenAI semantic conventions): its configuration
 * side in `telemetry.ts` — the OpenTelemetry shapes fino uses, the `telemetry` option,
 * the trace a run state keeps, how `@opentelemetry/api` is loaded — the spans of one
 * run in `run-telemetry.ts`, and a tracer whose spans never throw in `safe-tracer.ts`.
 *
 * It imports `fino:ai/model` (types) and the agent's `agent-error.ts`, `describe.ts` and
 * `types.ts` (types only); nothing of the loop itself (`run.ts`, `state.ts`, …), which
 * reaches this room through this file.
 */
export { type RunTelemetry, startRunTelemetry } from './run-telemetry.ts';
export {
  checkTraceContext,
  type OtelSpan,
  type OtelTracer,
  readTelemetry,
  type TelemetryConfig,
  type TelemetryOptions,
  type TraceContext,
} from './telemetry.ts';
