/**
 * The agent's front door: the one file `cli/` imports the agent through (lint and
 * test/lint/agent-front-door.test.ts hold it to that). Everything else under `agent/` is inside.
 */

// Opening a session, and what it runs and yields.
export {
  openAgentSession,
  type OpenAgentOptions,
  type OpenedAgent,
  type OpenedReplay,
} from './open-agent-session.js';
export type { AgentSession, DoneEvent, TurnOptions } from './agent-session.js';
export type { AgentEvent, ApprovalAnswer, ApprovalRecord, LoopStopReason } from './events.js';
export { DEFAULT_MAX_MODEL_CALLS } from './defaults.js';
export type { UndoPlan } from './checkpoint/turn-history.js';

// The person at the keyboard: approvals and questions.
export type { Approver } from './authorize/create-authorizer.js';
export type { Interaction } from './authorize/interaction.js';
export { summarizeAction } from './authorize/summarize-action.js';
export type { ApprovalRequest, TodoItem } from './tools/tool-types.js';
export { renderDiff } from './tools/render-diff.js';
export { readMentionedFile, type MentionedFileOptions } from './tools/read-mentioned-file.js';

// Saved sessions.
export {
  listSessions,
  loadSession,
  type LoadedSession,
  type SessionSummary,
} from './session/session-store.js';
export { readSessionFile, type SessionFileContent } from './session/read-session-file.js';
export type { SessionRecord } from './session/session-types.js';
export { toPlainLine } from './session/plain-line.js';

// MCP servers (`oy mcp`, `oy doctor`).
export { approveProjectMcp } from './mcp/mcp-approvals.js';
export { inspectMcpServers, type McpInspection } from './mcp/inspect-mcp-servers.js';
export {
  PROJECT_MCP_FILE,
  describeMcpServers,
  readProjectMcpFile,
} from './mcp/project-mcp-file.js';

// The sandbox, as `oy doctor` checks it.
export { probeSandbox } from './shell/sandbox.js';
export { findHostSockets, findRuntimeDirs } from './shell/find-host-sockets.js';
export { findHiddenPaths, listHiddenCandidates } from './shell/hidden-paths.js';
export { layOutHome } from './shell/home-places.js';
export { scanWorkspace } from './shell/scan-workspace.js';
