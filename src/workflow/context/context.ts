/**
 * The workflow context a run's code receives: each `ctx` operation is written in its own
 * file against the replay engine (`replay-engine.ts`, decision 137), which executes the
 * code again from the start every time a worker picks the run up and returns saved
 * results until the history ends.
 */
import type { AgentInput } from '../../ai/agent/index.ts';
import type { ToolResultObject } from '../../task/index.ts';
import type { HistoryEntry, StoredWorkflowRun } from '../types.ts';
import type { Workflow } from '../workflow.ts';
import { runAgent } from './agent-child.ts';
import { child } from './child-workflow.ts';
import { version } from './code-version.ts';
import type {
  AgentOutcome,
  Callable,
  CallOptions,
  ChildOptions,
  DurableAgent,
  StepContext,
  StepOptions,
  UpdateHandlerOptions,
  WaitForSignalOptions,
  WorkflowContext,
} from './context-types.ts';
import { type Continuation, continuationOf, continueAsNew } from './continue-as-new.ts';
import { now, random, uuid } from './deterministic-values.ts';
import { emit } from './emit-event.ts';
import type { ExecutionDeps, ExecutionEnd } from './execution-end.ts';
import { ReplayEngine } from './replay-engine.ts';
import { onQuery, onUpdate, RequestHandlers } from './request-handlers.ts';
import { waitForSignal } from './signal-wait.ts';
import { step } from './step.ts';
import { closeStream, writeStream } from './stream-write.ts';
import { sleep, sleepUntil } from './timers.ts';
import { call } from './tool-call.ts';

export type { ExecutionDeps, ExecutionEnd } from './execution-end.ts';

/** One execution of a run's code against its history, seen by the code as its `ctx`. */
export class Execution implements WorkflowContext {
  readonly runId: string;
  readonly workflowId: string;
  readonly signal: AbortSignal;
  readonly #engine: ReplayEngine;
  /** The query and update handlers the code registered. */
  readonly requests: RequestHandlers;

  constructor(run: StoredWorkflowRun, history: readonly HistoryEntry[], deps: ExecutionDeps) {
    this.#engine = new ReplayEngine(run, history, deps);
    this.requests = new RequestHandlers(this.#engine, history);
    this.runId = this.#engine.runId;
    this.workflowId = this.#engine.workflowId;
    this.signal = this.#engine.signal;
  }

  /** Whether this execution knows the run is cancelled. */
  get cancelling(): boolean {
    return this.#engine.cancelling;
  }

  /** The continue-as-new the code asked for (`ctx.continueAsNew`), if it did. */
  get continuation(): Continuation | undefined {
    return continuationOf(this.#engine);
  }

  /** Runs the code until it returns, throws, parks, fails the replay guard, loses its lease or stops. */
  execute(code: () => unknown): Promise<ExecutionEnd> {
    return this.#engine.execute(code);
  }

  /** Asks the execution to start nothing new: in-flight steps complete, then it ends `stopped`. */
  stop(): void {
    this.#engine.stop();
  }

  step<T>(
    id: string,
    fn: (step: StepContext) => T | Promise<T>,
    options?: StepOptions,
  ): Promise<T> {
    return step(this.#engine, id, fn, options);
  }

  sleep(id: string, ms: number): Promise<void> {
    return sleep(this.#engine, id, ms);
  }

  sleepUntil(id: string, at: Date | number): Promise<void> {
    return sleepUntil(this.#engine, id, at);
  }

  waitForSignal<T = unknown>(name: string, options?: WaitForSignalOptions): Promise<T> {
    return waitForSignal(this.#engine, name, options) as Promise<T>;
  }

  now(): Promise<Date> {
    return now(this.#engine);
  }

  random(): Promise<number> {
    return random(this.#engine);
  }

  uuid(): Promise<string> {
    return uuid(this.#engine);
  }

  version(changeId: string, range: { min: number; max: number }): Promise<number> {
    return version(this.#engine, changeId, range);
  }

  call(tool: Callable, args: unknown, options?: CallOptions): Promise<ToolResultObject> {
    return call(this.#engine, tool, args, options);
  }

  agent(agent: DurableAgent, prompt: AgentInput, options?: { id?: string }): Promise<AgentOutcome> {
    return runAgent(this.#engine, agent, prompt, options);
  }

  child<Input, Output>(
    workflow: Workflow<Input, Output>,
    input: Input,
    options?: ChildOptions,
  ): Promise<Output> {
    return child(this.#engine, workflow, input, options);
  }

  emit(name: string, value?: unknown): Promise<void> {
    return emit(this.#engine, name, value);
  }

  writeStream(name: string, value: unknown): Promise<void> {
    return writeStream(this.#engine, name, value);
  }

  closeStream(name: string): Promise<void> {
    return closeStream(this.#engine, name);
  }

  continueAsNew(input?: unknown): Promise<never> {
    return continueAsNew(this.#engine, input);
  }

  onQuery<Args = unknown, Result = unknown>(name: string, handler: (args: Args) => Result): void {
    onQuery(this.requests, name, handler as (args: unknown) => unknown);
  }

  onUpdate<Args = unknown, Result = unknown>(
    name: string,
    handler: (args: Args) => Result,
    options?: UpdateHandlerOptions<Args>,
  ): void {
    onUpdate(
      this.requests,
      name,
      handler as (args: unknown) => unknown,
      options as UpdateHandlerOptions<unknown>,
    );
  }
}
