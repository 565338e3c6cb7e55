import { branch, passes, report, type State, type Validate } from '../state.ts';
import { reportClosest } from './closest-branch.ts';

/** What each branch's `type` declares (undefined: no `type`), for the messages. */
export type BranchTypes = readonly (readonly string[] | undefined)[];

/** Runs an in-place branch in the fast pass; its annotations count if it passes. */
export function quietBranch(validate: Validate, data: unknown, st: State): boolean {
  const issues = st.issues;
  st.issues = null;
  const ok = branch(validate, data, st);
  st.issues = issues;
  return ok;
}

/** `anyOf`: at least one branch must match; every matching branch's annotations count. */
export function anyOf(branches: Validate[], types: BranchTypes): Validate {
  return (data, st) => {
    if (st.annot === null) {
      if (st.issues === null) {
        for (let i = 0; i < branches.length; i++) if (branches[i](data, st)) return true;
        return false;
      }
      for (const validate of branches) if (quietBranch(validate, data, st)) return true;
      return reportClosest(st, branches, types, data);
    }
    let matched = false;
    for (const validate of branches) if (quietBranch(validate, data, st)) matched = true;
    return matched || reportClosest(st, branches, types, data);
  };
}

/** `oneOf`: exactly one branch must match; says how many did when it is not one. */
export function oneOf(branches: Validate[], types: BranchTypes): Validate {
  return (data, st) => {
    let count = 0;
    for (let i = 0; i < branches.length; i++) {
      if (!quietBranch(branches[i], data, st)) continue;
      count++;
      if (count > 1 && st.issues === null && st.annot === null) return false;
    }
    if (count === 1) return true;
    if (st.issues === null) return false;
    if (count === 0) return reportClosest(st, branches, types, data);
    const matched = branches.flatMap((validate, i) => (passes(validate, data, st) ? [i] : []));
    return report(
      st,
      'oneOf',
      `expected exactly one schema of "oneOf" to match, but ${count} matched (branches ${matched.join(', ')})`,
      data,
    );
  };
}
