/** The tools of an agent, read from its options: fino tools and provider tools, names unique. */
import { showValue } from '../../internal/describe-value.ts';
import { TOOL_NAME_RULE } from '../../internal/tool-name.ts';
import type { ProviderTool } from '../model/index.ts';
import { AgentError } from './agent-error.ts';
import type { AnyTool } from './options.ts';
import { READ_RESULT } from './result-budget.ts';
import { describe } from './state.ts';

/** Checks the `tools` option: fino tools by name, and the tools the provider runs. */
export function readTools(tools: readonly (AnyTool | ProviderTool)[]): {
  byName: Map<string, AnyTool>;
  providerTools: Map<string, ProviderTool>;
} {
  if (!Array.isArray(tools)) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent(options).tools: expected an array of tools, received ${describe(tools)}`,
    );
  }
  const byName = new Map<string, AnyTool>();
  const providerTools = new Map<string, ProviderTool>();
  const refuseTaken = (name: string) => {
    if (byName.has(name) || providerTools.has(name)) {
      throw new AgentError(
        'INVALID_TOOL',
        `agent(options).tools: two tools are named "${name}"; names must be unique`,
      );
    }
  };
  tools.forEach((t, i) => {
    if (isProviderTool(t)) {
      refuseTaken(t.name);
      providerTools.set(t.name, t);
      return;
    }
    if (
      t === null ||
      typeof t !== 'object' ||
      typeof t.name !== 'string' ||
      typeof t.invoke !== 'function'
    ) {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `agent(options).tools[${i}]: expected a Tool (from tool() or new Tool()) or a provider tool (openai.tools.…()), received ${describe(t)}`,
      );
    }
    if (t.name === READ_RESULT) {
      throw new AgentError(
        'INVALID_TOOL',
        `agent(options).tools[${i}]: the name "${READ_RESULT}" is reserved for the built-in tool that pages through cut results; rename the tool`,
      );
    }
    if (!TOOL_NAME_RULE.test(t.name)) {
      throw new AgentError(
        'INVALID_TOOL',
        `agent(options).tools[${i}]: the tool name ${showValue(t.name)} breaks the providers' rule ${TOOL_NAME_RULE} (1 to 64 letters, digits, _ or -); rename the tool`,
      );
    }
    refuseTaken(t.name);
    byName.set(t.name, t);
  });
  return { byName, providerTools };
}

/** A provider tool (`openai.tools.…()`): `{ type: 'provider', provider, name, wire }`. */
function isProviderTool(value: unknown): value is ProviderTool {
  const t = value as Partial<ProviderTool> | null;
  return (
    t !== null &&
    typeof t === 'object' &&
    t.type === 'provider' &&
    typeof t.provider === 'string' &&
    typeof t.name === 'string' &&
    TOOL_NAME_RULE.test(t.name) &&
    t.wire !== null &&
    typeof t.wire === 'object'
  );
}
