// The agent's defaults the command line shows in its help. This file imports nothing, so the help and
// flag parsing can read it without loading the agent (the second, light door beside index.ts).

/** Model calls per turn unless `maxModelCalls` (`--max-turns`) says otherwise (docs/agent.md). */
export const DEFAULT_MAX_MODEL_CALLS = 100;
