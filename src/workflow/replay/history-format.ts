/**
 * The exported history of a workflow run (decision 236): a versioned JSON document with
 * everything a replay needs — the run (workflow id, input, status, cancellation), its
 * code versions and every history entry — sealed by a digest, so a file edited by hand or
 * cut short is refused as `CORRUPT_RUN` instead of replayed as something it never was.
 */
import { canonicalJson } from '../../internal/canonical-json.ts';
import { sha256Hex } from '../../internal/sha256.ts';
import type { HistoryEntry, StoredError, WorkflowStatus } from '../types.ts';

/** The `format` of every exported history. */
export const HISTORY_FORMAT = 'fino.workflow.history';

/** The version of the format this fino writes and reads. */
export const HISTORY_VERSION = 1;

/** One checkpoint of an exported history: the stored entry, its value decoded. */
export interface WorkflowHistoryExportEntry extends Omit<HistoryEntry, 'value'> {
  /** The result (absent for `undefined`). */
  value?: unknown;
}

/** A run's history as `exportHistory` writes it and `replayHistory` reads it. */
export interface WorkflowHistoryExport {
  format: typeof HISTORY_FORMAT;
  version: typeof HISTORY_VERSION;
  /** When it was exported (ISO 8601). */
  exportedAt: string;
  run: {
    runId: string;
    workflowId: string;
    key?: string;
    /** Where the run stood when exported. */
    status: WorkflowStatus;
    input?: unknown;
    output?: unknown;
    error?: StoredError;
    cancelRequested: boolean;
    parentRunId?: string;
    createdAt: number;
    updatedAt: number;
  };
  /** The code versions the run follows: each `ctx.version` change id and its version. */
  codeVersions: Record<string, number>;
  entries: WorkflowHistoryExportEntry[];
  /** `sha256:` and the hex SHA-256 of the canonical JSON of every other field. */
  digest: string;
}

/** The digest of a history: of the canonical JSON of every field but `digest`. */
export function historyDigest(history: Record<string, unknown>): string {
  const { digest: _, ...sealed } = history;
  return `sha256:${sha256Hex(canonicalJson(sealed))}`;
}
