import type { NodeInfo, SchemaNode } from '../context.ts';
import { entering, guarded, type Validate } from '../state.ts';
import type { Checks, NodeScope } from './scope.ts';

/** `$ref`, and in draft 2020-12 `$dynamicRef`. */
export function compileRefs(scope: NodeScope, checks: Checks): void {
  const { read, ctx, info } = scope;
  const reference = read.string('$ref');
  if (reference !== undefined) {
    const target = ctx.resolve(reference, info, '$ref');
    checks.any.push(viaReference(scope, target.node, target.info));
  }
  const dynamic = info.dialect.draft === 2020 ? read.string('$dynamicRef') : undefined;
  if (dynamic === undefined) return;
  const target = ctx.resolve(dynamic, info, '$dynamicRef');
  const fallback = viaReference(scope, target.node, target.info);
  const name = target.fragment;
  const bookended =
    typeof target.node === 'object' && name !== '' && target.node.$dynamicAnchor === name;
  if (!bookended) {
    checks.any.push(fallback);
    return;
  }
  checks.any.push((data, st) => {
    for (const resource of st.scope) {
      const node = ctx.dynamicAnchors.get(resource)?.get(name);
      if (node !== undefined) return ctx.dynamicTarget(node)(data, st);
    }
    return fallback(data, st);
  });
}

function viaReference(scope: NodeScope, node: SchemaNode, info: NodeInfo): Validate {
  const validate = guarded(scope.ctx.validatorFor(node, info));
  const entersResource =
    info.resource !== scope.info.resource && scope.ctx.hasDynamicAnchors(info.resource);
  return entersResource ? entering(info.resource, validate) : validate;
}
