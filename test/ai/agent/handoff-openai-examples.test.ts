/**
 * The OpenAI Agents SDK's own examples of handoffs (`examples/handoffs`, the routing
 * pattern) and of agents as tools (`examples/agent-patterns/agents-as-tools.ts`), ported
 * to fino and run side by side with the SDK (0.20) against one fake Chat Completions
 * server: the same script answers both, so which agent answers, what it was sent and what
 * the user sees must be the same.
 */
import {
  Agent as OpenAIAgent,
  handoff as openaiHandoff,
  run as openaiRun,
  tool as openaiTool,
  setTracingDisabled,
} from '@openai/agents';
import { removeAllTools } from '@openai/agents-core/extensions';
import { OpenAIChatCompletionsModel } from '@openai/agents-openai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agent, handoff } from '../../../src/ai/agent/index.ts';
import { type ModelMessage, openai } from '../../../src/ai/model/index.ts';
import { tool } from '../../../src/ai/tool/index.ts';
import { v } from '../../../src/validate/index.ts';
import {
  type ChatRequest,
  type ChatServer,
  chatServer,
  lastUserText,
  systemOf,
} from '../../helpers/chat-server.ts';

setTracingDisabled(true);

let server: ChatServer | undefined;
afterEach(() => server?.close());

/** Both SDKs' models over the fake server. */
const models = (url: string) => ({
  fino: openai({ model: 'gpt-test', apiKey: 'sk-test', baseURL: url }),
  sdk: new OpenAIChatCompletionsModel(new OpenAI({ apiKey: 'sk-test', baseURL: url }), 'gpt-test'),
});

/** The handoff tool the request offers whose name mentions `target`. */
const transferTo = (body: ChatRequest, target: string) =>
  body.tools!.find(
    (t) => t.function.name.startsWith('transfer_to_') && t.function.name.includes(target),
  )!.function.name;

const lastIsTool = (body: ChatRequest) => body.messages.at(-1)?.role === 'tool';
const toolMessages = (body: ChatRequest) =>
  body.messages.filter((m) => m.role === 'tool' || (m.tool_calls?.length ?? 0) > 0).length;

/** fino's counterpart of the SDK's `removeAllTools` filter: drops tool calls and results. */
const withoutTools = (messages: ModelMessage[]): ModelMessage[] =>
  messages.flatMap((m) => {
    if (typeof m.content === 'string') return [m];
    const content = m.content.filter((p) => p.type !== 'tool_use' && p.type !== 'tool_result');
    return content.length === 0 ? [] : [{ ...m, content } as ModelMessage];
  });

describe('examples/handoffs: a message filter on the handoff to a Spanish assistant', () => {
  const FIRST = 'Be extremely concise.';
  const SECOND =
    'Be a helpful assistant. If the user speaks Spanish, handoff to the Spanish assistant.';
  const SPANISH = 'You only speak Spanish and are extremely concise.';
  const spanishSaw: ChatRequest[] = [];
  const script = (body: ChatRequest) => {
    const system = systemOf(body);
    if (system === FIRST) {
      if (lastIsTool(body)) return { text: `Your number is ${body.messages.at(-1)!.content}.` };
      if (/random number/.test(lastUserText(body))) {
        return { toolCalls: [{ name: 'random_number_tool', args: { max: 100 } }] };
      }
      return { text: 'Hi Sora!' };
    }
    if (system === SECOND) {
      if (/Por favor/.test(lastUserText(body))) {
        return { toolCalls: [{ name: transferTo(body, 'Spanish'), args: {} }] };
      }
      return { text: 'About 8.3 million people.' };
    }
    spanishSaw.push(body);
    return { text: 'Te llamas Sora y vives en Nueva York.' };
  };
  const turns = [
    'Can you generate a random number between 0 and 100?',
    "I live in New York City. What's the population of the city?",
    'Por favor habla en español. ¿Cuál es mi nombre y dónde vivo?',
  ];

  it('fino and the SDK: the Spanish assistant answers, seeing the conversation without tools', async () => {
    server = await chatServer(script);
    const { fino: model, sdk: sdkModel } = models(server.url);

    // fino
    const randomNumber = tool({
      name: 'random_number_tool',
      description: 'Return a random integer between 0 and the given maximum.',
      parameters: v.object({ max: v.number() }),
      execute: () => '42',
    });
    const first = agent({
      name: 'First Assistant',
      instructions: FIRST,
      model,
      tools: [randomNumber],
    });
    const spanish = agent({
      name: 'Spanish Assistant',
      instructions: SPANISH,
      description: 'A Spanish-speaking assistant.',
      model,
    });
    const second = agent({
      name: 'Second Assistant',
      instructions: SECOND,
      model,
      handoffs: [handoff(spanish, { inputFilter: withoutTools })],
    });
    let result = await first.generate('Hi, my name is Sora.');
    result = await first.generate(turns[0], { history: result.state.messages });
    const number = result.status === 'done' && result.text;
    result = await second.generate(turns[1], { history: result.state.messages });
    result = await second.generate(turns[2], { history: result.state.messages });
    const finoSeen = spanishSaw.splice(0);

    // the OpenAI Agents SDK
    const sdkNumber = openaiTool({
      name: 'random_number_tool',
      description: 'Return a random integer between 0 and the given maximum.',
      parameters: z.object({ max: z.number() }),
      execute: async () => '42',
    });
    const sdkFirst = new OpenAIAgent({
      name: 'First Assistant',
      instructions: FIRST,
      model: sdkModel,
      tools: [sdkNumber],
    });
    const sdkSpanish = new OpenAIAgent({
      name: 'Spanish Assistant',
      instructions: SPANISH,
      handoffDescription: 'A Spanish-speaking assistant.',
      model: sdkModel,
    });
    const sdkSecond = new OpenAIAgent({
      name: 'Second Assistant',
      instructions: SECOND,
      model: sdkModel,
      handoffs: [openaiHandoff(sdkSpanish, { inputFilter: removeAllTools })],
    });
    let sdk = await openaiRun(sdkFirst, 'Hi, my name is Sora.');
    sdk = await openaiRun(sdkFirst, [...sdk.history, { role: 'user', content: turns[0] }]);
    const sdkNumberText = sdk.finalOutput;
    sdk = await openaiRun(sdkSecond, [...sdk.history, { role: 'user', content: turns[1] }]);
    sdk = await openaiRun(sdkSecond, [...sdk.history, { role: 'user', content: turns[2] }]);
    const sdkSeen = spanishSaw.splice(0);

    // the same behaviour
    expect([number, sdkNumberText]).toEqual(['Your number is 42.', 'Your number is 42.']);
    expect([result.agent, sdk.lastAgent?.name]).toEqual(['Spanish Assistant', 'Spanish Assistant']);
    const finoText = result.status === 'done' && result.text;
    expect([finoText, sdk.finalOutput]).toEqual([
      'Te llamas Sora y vives en Nueva York.',
      'Te llamas Sora y vives en Nueva York.',
    ]);
    for (const seen of [finoSeen, sdkSeen]) {
      expect(seen).toHaveLength(1);
      expect(toolMessages(seen[0])).toBe(0); // the filter removed every tool call and result
      const users = seen[0].messages.filter((m) => m.role === 'user').map((m) => m.content);
      expect(users).toEqual(['Hi, my name is Sora.', ...turns]);
    }
  });
});

describe('routing: a triage agent hands off by language; the next message goes to the agent now active', () => {
  const langs = {
    french: 'You only speak French',
    spanish: 'You only speak Spanish',
    english: 'You only speak English',
  };
  const TRIAGE = 'Handoff to the appropriate agent based on the language of the request.';
  const script = (body: ChatRequest) => {
    const system = systemOf(body);
    if (system === TRIAGE) {
      const lang = /Hola/.test(lastUserText(body))
        ? 'spanish'
        : /Bonjour/.test(lastUserText(body))
          ? 'french'
          : 'english';
      return { toolCalls: [{ name: transferTo(body, lang), args: {} }] };
    }
    return { text: `${system.replace('You only speak ', '')}: ${lastUserText(body)}` };
  };

  it('fino and the SDK: spanish_agent answers both messages, triage is asked once', async () => {
    server = await chatServer(script);
    const { fino: model, sdk: sdkModel } = models(server.url);
    const finoAgents = Object.entries(langs).map(([lang, instructions]) =>
      agent({ name: `${lang}_agent`, instructions, model }),
    );
    const triage = agent({
      name: 'triage_agent',
      instructions: TRIAGE,
      model,
      handoffs: finoAgents,
    });
    const first = await triage.generate('Hola, ¿qué tal?');
    const next = await triage.generate('¿Y mañana?', {
      history: first.state.messages,
      agent: first.agent,
    });
    const finoAsked = server.requests.splice(0).map(systemOf);

    const sdkAgents = Object.entries(langs).map(
      ([lang, instructions]) =>
        new OpenAIAgent({ name: `${lang}_agent`, instructions, model: sdkModel }),
    );
    const sdkTriage = new OpenAIAgent({
      name: 'triage_agent',
      instructions: TRIAGE,
      model: sdkModel,
      handoffs: sdkAgents,
    });
    const sdkFirst = await openaiRun(sdkTriage, 'Hola, ¿qué tal?');
    const sdkNext = await openaiRun(sdkFirst.lastAgent!, [
      ...sdkFirst.history,
      { role: 'user', content: '¿Y mañana?' },
    ]);
    const sdkAsked = server.requests.splice(0).map(systemOf);

    expect([first.agent, next.agent]).toEqual(['spanish_agent', 'spanish_agent']);
    expect([sdkFirst.lastAgent?.name, sdkNext.lastAgent?.name]).toEqual([
      'spanish_agent',
      'spanish_agent',
    ]);
    expect(next.status === 'done' && next.text).toBe(sdkNext.finalOutput);
    expect(finoAsked).toEqual([TRIAGE, langs.spanish, langs.spanish]);
    expect(sdkAsked).toEqual(finoAsked);
  });
});

describe('agent-patterns/agents-as-tools: an orchestrator calls translators as tools', () => {
  const LANGS = ['Spanish', 'French'];
  /** One translator agent, as both ports build it. */
  const translator = (lang: string) => ({
    name: `${lang.toLowerCase()}_agent`,
    instructions: `You translate the user's message to ${lang}`,
    toolName: `translate_to_${lang.toLowerCase()}`,
    description: `Translate the user's message to ${lang}`,
  });
  const ORCHESTRATOR = 'You are a translation agent. You use the tools given to you to translate.';
  const SYNTHESIZER =
    'You inspect translations, correct them if needed, and produce a final concatenated response.';
  const words: Record<string, string> = {
    "You translate the user's message to Spanish": 'Buenos días',
    "You translate the user's message to French": 'Bonjour',
  };
  const script = (body: ChatRequest) => {
    const system = systemOf(body);
    if (system === ORCHESTRATOR) {
      if (lastIsTool(body)) {
        const results = body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
        return { text: results.join(' / ') };
      }
      const input = { input: lastUserText(body) };
      return {
        toolCalls: [
          { name: 'translate_to_spanish', args: input },
          { name: 'translate_to_french', args: input },
        ],
      };
    }
    if (system === SYNTHESIZER) return { text: `Final: ${lastUserText(body)}` };
    return { text: words[system] };
  };

  it('fino and the SDK: the orchestrator answers with both translations; the synthesizer sums up', async () => {
    server = await chatServer(script);
    const { fino: model, sdk: sdkModel } = models(server.url);
    const orchestrator = agent({
      name: 'orchestrator_agent',
      instructions: ORCHESTRATOR,
      model,
      tools: LANGS.map(translator).map((t) =>
        agent({ name: t.name, instructions: t.instructions, model }).asTool({
          name: t.toolName,
          description: t.description,
        }),
      ),
    });
    const synthesizer = agent({ name: 'synthesizer_agent', instructions: SYNTHESIZER, model });
    const orchestrated = await orchestrator.generate('Good morning, in Spanish and French');
    const orchestratedText = orchestrated.status === 'done' ? orchestrated.text : '';
    const final = await synthesizer.generate(orchestratedText);

    const sdkOrchestrator = new OpenAIAgent({
      name: 'orchestrator_agent',
      instructions: ORCHESTRATOR,
      model: sdkModel,
      tools: LANGS.map(translator).map((t) =>
        new OpenAIAgent({ name: t.name, instructions: t.instructions, model: sdkModel }).asTool({
          toolName: t.toolName,
          toolDescription: t.description,
        }),
      ),
    });
    const sdkSynthesizer = new OpenAIAgent({
      name: 'synthesizer_agent',
      instructions: SYNTHESIZER,
      model: sdkModel,
    });
    const sdkOrchestrated = await openaiRun(sdkOrchestrator, 'Good morning, in Spanish and French');
    const sdkFinal = await openaiRun(sdkSynthesizer, String(sdkOrchestrated.finalOutput));

    expect([orchestratedText, sdkOrchestrated.finalOutput]).toEqual([
      'Buenos días / Bonjour',
      'Buenos días / Bonjour',
    ]);
    expect([orchestrated.agent, sdkOrchestrated.lastAgent?.name]).toEqual([
      'orchestrator_agent',
      'orchestrator_agent',
    ]);
    expect([final.status === 'done' && final.text, sdkFinal.finalOutput]).toEqual([
      'Final: Buenos días / Bonjour',
      'Final: Buenos días / Bonjour',
    ]);
  });
});
