import type { Issue } from '../../issues.ts';
import { describeValue } from '../describe.ts';
import { formatPath } from '../path.ts';
import { issuesOf, report, type State, type Validate } from '../state.ts';

/**
 * How far a failed branch is from matching: a wrong type right at the union's value
 * counts most, a wrong tag (`const`/`enum`) next, any other issue least.
 */
function distance(issues: readonly Issue[], here: string): number {
  let score = 0;
  for (const issue of issues) {
    if (issue.path === here && (issue.keyword === 'type' || issue.keyword === 'false'))
      score += 1000;
    else if (
      issue.keyword === 'const' ||
      issue.keyword === 'enum' ||
      issue.keyword === 'discriminator'
    )
      score += 20;
    else score += 1;
  }
  return score;
}

/**
 * Reports why no branch of an `anyOf`/`oneOf` matched: one `expected a or b` issue when
 * every branch wanted another type (`types`: what each branch's `type` declares), else the
 * issues of the closest branch only.
 */
export function reportClosest(
  st: State,
  branches: readonly Validate[],
  types: readonly (readonly string[] | undefined)[],
  data: unknown,
): false {
  const annot = st.annot;
  st.annot = null;
  const here = formatPath(st.path);
  const perBranch = branches.map((validate) => issuesOf(validate, data, st));
  st.annot = annot;
  const allWrongType = perBranch.every(
    (issues, i) =>
      types[i] !== undefined &&
      issues.length === 1 &&
      issues[0].keyword === 'type' &&
      issues[0].path === here,
  );
  if (allWrongType) {
    const expected = [...new Set(types.flatMap((list) => list ?? []))];
    return report(
      st,
      'type',
      `expected ${expected.join(' or ')}, received ${describeValue(data)}`,
      data,
    );
  }
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  perBranch.forEach((issues, i) => {
    const d = distance(issues, here);
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  });
  st.issues?.push(...perBranch[best]);
  return false;
}
