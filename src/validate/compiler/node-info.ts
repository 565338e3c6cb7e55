import type { Dialect } from './dialect.ts';

/**
 * Where a schema object sits: its base URI, resource and dialect, and its path for error
 * messages. The path is kept as a link to the parent plus one segment and spelled out only
 * when an error needs it, so a schema nested 100k levels deep costs linear memory.
 */
export class NodeInfo {
  constructor(
    /** The base URI relative references resolve against (after the node's own `$id`). */
    readonly base: string,
    /** The URI of the schema resource the node belongs to. */
    readonly resource: string,
    readonly dialect: Dialect,
    /** The enclosing position, undefined for a document's root. */
    readonly parent: NodeInfo | undefined,
    /** The last path segment(s): `#` (or `uri#`) for a root, `properties/a` below it. */
    readonly segment: string,
  ) {}

  /** Is this a document's root? */
  get isRoot(): boolean {
    return this.parent === undefined;
  }

  /** JSON Pointer fragment of the node (`#/properties/a`), prefixed by a remote document's URI. */
  get path(): string {
    const segments: string[] = [];
    for (let info: NodeInfo | undefined = this; info !== undefined; info = info.parent) {
      segments.push(info.segment);
    }
    return segments.reverse().join('/');
  }

  /** The position of a subschema at `segment` below this one. */
  child(segment: string): NodeInfo {
    return new NodeInfo(this.base, this.resource, this.dialect, this, segment);
  }

  /** The same position read with another base URI, resource or dialect. */
  with(base: string, resource: string, dialect: Dialect): NodeInfo {
    return new NodeInfo(base, resource, dialect, this.parent, this.segment);
  }
}
