/**
 * Declarations for the `fino:` specifiers. Add `"types": ["fino/modules"]` to a
 * project's tsconfig to import `fino:ai/tool` and the other modules with full types;
 * run the program with `node --import fino/register app.ts`.
 */
declare module 'fino:validate' {
  export * from 'fino/validate';
}
declare module 'fino:task' {
  export * from 'fino/task';
}
declare module 'fino:ai/tool' {
  export * from 'fino/ai/tool';
}
declare module 'fino:ai/model' {
  export * from 'fino/ai/model';
}
declare module 'fino:ai/agent' {
  export * from 'fino/ai/agent';
}
declare module 'fino:ai/mcp' {
  export * from 'fino/ai/mcp';
}
declare module 'fino:ai/session' {
  export * from 'fino/ai/session';
}

declare module 'fino:ai/ui' {
  export * from 'fino/ai/ui';
}
declare module 'fino:workflow' {
  export * from 'fino/workflow';
}
