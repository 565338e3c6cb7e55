import { METASCHEMAS } from '../metaschemas/index.ts';
import { type Dialect, DRAFT_7, DRAFT_2020, dialectOf } from './dialect.ts';
import { ANY, type JsonType, Leaf } from './keywords/index.ts';
import { compileNode } from './node.ts';
import { NodeInfo } from './node-info.ts';
import { escapeToken, pointerTokens } from './pointer.ts';
import { SchemaError } from './schema-error.ts';
import { callShape, leafShape, type Shape } from './shape.ts';
import { alwaysValid, guarded, type Validate } from './state.ts';

export { NodeInfo } from './node-info.ts';

import { DEFAULT_BASE, resolveUri, splitFragment } from './uri.ts';

/** A schema: an object of keywords, or `true`/`false`. */
export type SchemaNode = { [keyword: string]: unknown } | boolean;

/** Options the compiler reads (see `CompileOptions`). */
export interface CompilerOptions {
  formats: boolean;
  registry: Record<string, unknown>;
  refinements:
    | ReadonlyMap<object, ReadonlyArray<(value: unknown) => string | undefined>>
    | undefined;
  /** The draft of a root schema without `$schema`. */
  draft: 7 | 2020;
}

/**
 * A schema object's compiled closure (null while it compiles), and what the compiler
 * learnt of it, for the nodes that use it: its shape (shape.ts) and the types its `type`
 * declares. Kept here, by schema object, not in maps keyed by closure: a closure used as
 * a map key gets a hash table of its own, about 400 bytes each.
 */
interface Cell {
  validate: Validate | null;
  shape: Shape | null;
  types: readonly JsonType[] | undefined;
}

/** `true` accepts everything. */
const ANY_SHAPE = leafShape(new Leaf(ANY), alwaysValid);

const SUBSCHEMA = [
  'additionalProperties',
  'additionalItems',
  'items',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
];
const SUBSCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SUBSCHEMA_MAP = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One compilation: the schema resources known so far (the root document and the
 * registry documents it references), their anchors, and the compiled closure of every
 * schema node, so each node compiles once and reference cycles close on themselves.
 */
export class CompileContext {
  readonly options: CompilerOptions;
  /** Resource URI → names of its `$dynamicAnchor`s → the schema declaring each. */
  readonly dynamicAnchors = new Map<string, Map<string, SchemaNode>>();
  private readonly registry = new Map<string, unknown>();
  private readonly resources = new Map<string, { node: SchemaNode; dialect: Dialect }>();
  private readonly anchors = new Map<string, SchemaNode>();
  private readonly infos = new Map<object, NodeInfo>();
  private readonly cells = new Map<object, Cell>();
  /** The guarded closure of every `$dynamicAnchor` schema, compiled by {@link compileDynamicTargets}. */
  private readonly dynamicTargets = new Map<SchemaNode, Validate>();

  constructor(options: CompilerOptions) {
    this.options = options;
    for (const [uri, document] of Object.entries(options.registry)) {
      const normalized = resolveUri(uri, DEFAULT_BASE);
      if (normalized === undefined) throw new SchemaError(uri, 'registry key is not a URI');
      this.registry.set(splitFragment(normalized)[0], document);
    }
  }

  /** Adds the root schema document and returns where it sits. */
  addRoot(schema: SchemaNode): NodeInfo {
    return this.addDocument(
      schema,
      DEFAULT_BASE,
      this.options.draft === 7 ? DRAFT_7 : DRAFT_2020,
      '#',
    );
  }

  /** The position of a scanned schema object. */
  infoOf(node: object): NodeInfo | undefined {
    return this.infos.get(node);
  }

  /** The compiled closure of a schema node, compiled once; a cycle gets a forwarding closure. */
  validatorFor(node: SchemaNode, info: NodeInfo): Validate {
    if (typeof node === 'boolean') return compileNode(this, node, info);
    const cell = this.cells.get(node);
    if (cell !== undefined) {
      if (cell.validate !== null) return cell.validate;
      return (data, st) => (cell.validate as Validate)(data, st);
    }
    const fresh: Cell = { validate: null, shape: null, types: undefined };
    this.cells.set(node, fresh);
    fresh.validate = compileNode(this, node, this.infos.get(node) ?? info);
    return fresh.validate;
  }

  /** Records what a schema object compiles to: its shape (null: a call) and declared types. */
  describe(node: object, shape: Shape | null, types: readonly JsonType[] | undefined): void {
    const cell = this.cells.get(node);
    if (cell === undefined) return;
    cell.shape = shape;
    cell.types = types;
  }

  /** The shape of a (sub)schema whose closure is `validate`: a call to it unless described. */
  shapeOf(node: unknown, validate: Validate): Shape {
    if (node === true) return ANY_SHAPE;
    const shape = typeof node === 'object' && node !== null ? this.cells.get(node)?.shape : null;
    return shape ?? callShape(validate);
  }

  /** The types a (sub)schema's `type` declares, when it has one. */
  typesOf(node: unknown): readonly JsonType[] | undefined {
    return typeof node === 'object' && node !== null ? this.cells.get(node)?.types : undefined;
  }

  /**
   * Compiles every schema that declares a `$dynamicAnchor` in every resource loaded so far,
   * until compiling them loads no more: a `$dynamicRef` may land on any of them at
   * validation time, so their schema errors must surface now, at `compile()`.
   */
  compileDynamicTargets(): void {
    let added = true;
    while (added) {
      added = false;
      for (const names of [...this.dynamicAnchors.values()]) {
        for (const node of [...names.values()]) {
          if (this.dynamicTargets.has(node)) continue;
          added = true;
          const info = this.infoOf(node as object) as NodeInfo;
          this.dynamicTargets.set(node, guarded(this.validatorFor(node, info)));
        }
      }
    }
  }

  /**
   * The closure of a `$dynamicAnchor` schema. Only the resources entered while validating are
   * searched, and each was loaded at compile time, so {@link compileDynamicTargets} compiled it.
   */
  dynamicTarget(node: SchemaNode): Validate {
    return this.dynamicTargets.get(node) as Validate;
  }

  /** Does a resource declare `$dynamicAnchor`s (so entering it extends the dynamic scope)? */
  hasDynamicAnchors(resource: string): boolean {
    return this.dynamicAnchors.has(resource);
  }

  /**
   * Resolves a `$ref`/`$dynamicRef` value; `keyword` is the path below `from` of the
   * keyword holding it, for errors.
   */
  resolve(
    reference: string,
    from: NodeInfo,
    keyword: string,
  ): { node: SchemaNode; info: NodeInfo; fragment: string } {
    const at = () => from.child(keyword).path;
    const absolute = resolveUri(reference, from.base);
    if (absolute === undefined)
      throw new SchemaError(at(), `cannot resolve "${reference}" against base URI ${from.base}`);
    const [resource, fragment] = splitFragment(absolute);
    const document = this.resources.get(resource) ?? this.load(resource, from.dialect);
    if (document === undefined) {
      throw new SchemaError(
        at(),
        `cannot resolve $ref "${reference}": no schema has URI ${resource} (register remote documents in options.registry)`,
      );
    }
    if (fragment === '')
      return { node: document.node, info: this.infoAt(document.node, resource), fragment };
    if (fragment.startsWith('/'))
      return this.walkPointer(document.node, resource, fragment, reference, at);
    const anchored = this.anchors.get(`${resource}#${decodeURIComponent(fragment)}`);
    if (anchored === undefined)
      throw new SchemaError(
        at(),
        `cannot resolve $ref "${reference}": no anchor "${fragment}" in ${resource}`,
      );
    return { node: anchored, info: this.infoAt(anchored, resource), fragment };
  }

  private infoAt(node: SchemaNode, resource: string): NodeInfo {
    const known = typeof node === 'object' ? this.infos.get(node) : undefined;
    return (
      known ??
      new NodeInfo(
        resource,
        resource,
        this.resources.get(resource)?.dialect ?? DRAFT_2020,
        undefined,
        `${resource}#`,
      )
    );
  }

  private walkPointer(
    root: SchemaNode,
    resource: string,
    fragment: string,
    reference: string,
    at: () => string,
  ) {
    let node: unknown = root;
    let info = this.infoAt(root, resource);
    for (const token of pointerTokens(fragment)) {
      const next = Array.isArray(node)
        ? node[Number(token)]
        : isObject(node) && Object.hasOwn(node, token)
          ? node[token]
          : undefined;
      if (next === undefined)
        throw new SchemaError(
          at(),
          `cannot resolve $ref "${reference}": nothing at ${fragment} in ${resource}`,
        );
      node = next;
      const known = isObject(node) ? this.infos.get(node) : undefined;
      if (known !== undefined) info = known;
      else info = info.child(escapeToken(token));
    }
    if (typeof node !== 'boolean' && !isObject(node)) {
      throw new SchemaError(
        at(),
        `cannot resolve $ref "${reference}": ${fragment} is not a schema`,
      );
    }
    if (typeof node === 'object' && !this.infos.has(node)) this.scan(node, info);
    return {
      node,
      info: typeof node === 'object' ? (this.infos.get(node) as NodeInfo) : info,
      fragment,
    };
  }

  private load(resource: string, dialect: Dialect) {
    const document = this.registry.get(resource) ?? METASCHEMAS.get(resource);
    if (document === undefined) return undefined;
    if (typeof document !== 'boolean' && !isObject(document)) {
      throw new SchemaError(
        `${resource}#`,
        'registry document is not a schema (object or boolean)',
      );
    }
    this.addDocument(document, resource, dialect, `${resource}#`);
    return this.resources.get(resource);
  }

  private addDocument(document: SchemaNode, uri: string, dialect: Dialect, path: string): NodeInfo {
    const info = new NodeInfo(uri, uri, dialect, undefined, path);
    this.resources.set(uri, { node: document, dialect });
    if (typeof document === 'object') this.scan(document, info);
    return typeof document === 'object' ? (this.infos.get(document) ?? info) : info;
  }

  /** Records the position, `$id`, anchors and dialect of a schema object and its subschemas. */
  private scan(root: Record<string, unknown>, rootInfo: NodeInfo): void {
    const stack: Array<[Record<string, unknown>, NodeInfo]> = [[root, rootInfo]];
    while (stack.length > 0) {
      const [node, parent] = stack.pop() as [Record<string, unknown>, NodeInfo];
      if (this.infos.has(node)) continue;
      const info = this.identify(node, parent);
      this.infos.set(node, info);
      const push = (value: unknown, suffix: string) => {
        if (isObject(value)) stack.push([value, info.child(suffix)]);
      };
      for (const keyword of SUBSCHEMA)
        if (Object.hasOwn(node, keyword)) push(node[keyword], keyword);
      for (const keyword of SUBSCHEMA_LIST) {
        const list = node[keyword];
        if (Object.hasOwn(node, keyword) && Array.isArray(list))
          for (let i = 0; i < list.length; i++) push(list[i], `${keyword}/${i}`);
      }
      for (const keyword of SUBSCHEMA_MAP) {
        const map = node[keyword];
        if (!Object.hasOwn(node, keyword) || !isObject(map)) continue;
        for (const key of Object.keys(map)) push(map[key], `${keyword}/${escapeToken(key)}`);
      }
    }
  }

  /** Applies a node's `$schema`, `$id`, `$anchor` and `$dynamicAnchor` to the position it inherits. */
  private identify(node: Record<string, unknown>, parent: NodeInfo): NodeInfo {
    let { base, resource, dialect } = parent;
    const isRoot = parent.isRoot;
    const id = node.$id;
    const ignoresSiblings = dialect.draft === 7 && Object.hasOwn(node, '$ref');
    if (typeof node.$schema === 'string' && (isRoot || typeof id === 'string')) {
      dialect = dialectOf(node.$schema, dialect, (uri) =>
        this.registry.get(splitFragment(resolveUri(uri, base) ?? uri)[0]),
      );
    }
    if (typeof id === 'string' && !ignoresSiblings) {
      const resolved = resolveUri(id, base);
      if (resolved === undefined)
        throw new SchemaError(parent.child('$id').path, `"${id}" is not a URI reference`);
      const [idResource, fragment] = splitFragment(resolved);
      if (dialect.draft === 7 && id.startsWith('#')) {
        this.anchors.set(`${resource}#${fragment}`, node);
      } else {
        base = resolved;
        resource = idResource;
        this.resources.set(idResource, { node, dialect });
        if (fragment !== '' && !fragment.startsWith('/'))
          this.anchors.set(`${idResource}#${fragment}`, node);
      }
    }
    if (dialect.draft === 2020) {
      if (typeof node.$anchor === 'string') this.anchors.set(`${resource}#${node.$anchor}`, node);
      if (typeof node.$dynamicAnchor === 'string') {
        this.anchors.set(`${resource}#${node.$dynamicAnchor}`, node);
        let names = this.dynamicAnchors.get(resource);
        if (names === undefined) {
          names = new Map();
          this.dynamicAnchors.set(resource, names);
        }
        names.set(node.$dynamicAnchor, node);
      }
    }
    return parent.with(base, resource, dialect);
  }
}
