import { DEFAULT_CONFIG, type ConfigFile, type OyConfig } from './config-schema.js';
import { takeProjectAudit, type ProjectAuditRules } from './project-audit-keys.js';

/** Where a layer came from; decides what it is allowed to set. */
export type ConfigLayerKind = 'user' | 'project' | 'environment' | 'flags';

export interface ConfigLayer {
  kind: ConfigLayerKind;
  /** A file path or a short name, used in warnings. */
  source: string;
  values: ConfigFile;
}

export interface MergedConfig {
  config: OyConfig;
  projectAudit: ProjectAuditRules;
  warnings: string[];
}

/**
 * Merges layers in the documented precedence, lowest first: defaults < user < project < environment < flags.
 * The project file is repository content, so it may only narrow: its allow rules are dropped, and each
 * audit key does what PROJECT_AUDIT_KEYS says (include/exclude kept apart, focus and outputs ignored).
 */
export function mergeConfig(layers: readonly ConfigLayer[]): MergedConfig {
  const warnings: string[] = [];
  const config: OyConfig = structuredClone(DEFAULT_CONFIG);
  const projectAudit: ProjectAuditRules = { include: [], exclude: [] };
  const order: ConfigLayerKind[] = ['user', 'project', 'environment', 'flags'];
  const sorted = [...layers].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));

  for (const layer of sorted) {
    const { values } = layer;
    if (values.model !== undefined) {
      if (layer.kind === 'project') {
        warnings.push(
          `${layer.source}: "model" is ignored in a project file (a repository may not choose where its code is sent)`,
        );
      } else {
        config.model = values.model;
      }
    }
    if (values.permissions) {
      const { allow = [], ask = [], deny = [] } = values.permissions;
      if (layer.kind === 'project' && allow.length > 0) {
        warnings.push(
          `${layer.source}: ${allow.length} allow rule(s) ignored; a project file may only add deny or ask rules`,
        );
      } else {
        config.permissions.allow.push(...allow);
      }
      config.permissions.ask.push(...ask);
      config.permissions.deny.push(...deny);
    }
    if (values.agent) mergeAgentSection(config, layer, warnings);
    for (const key of ['mcpServers', 'hooks'] as const) {
      if (values[key] === undefined) continue;
      // Both start processes of the repository's choosing: only the user's own file may name them.
      if (layer.kind === 'project') {
        warnings.push(
          `${layer.source}: "${key}" ignored; a project file may not start programs (MCP servers come from an approved .mcp.json)`,
        );
      } else Object.assign(config[key], values[key]);
    }
    if (values.models !== undefined) {
      // A hostile repository could lower a price under --max-cost, or claim a model is local.
      if (layer.kind === 'project') {
        warnings.push(
          `${layer.source}: "models" is ignored in a project file (a repository may not set model prices or facts)`,
        );
      } else {
        for (const [id, facts] of Object.entries(values.models))
          config.models[id] = { ...config.models[id], ...facts };
      }
    }
    if (values.audit) {
      const audit =
        layer.kind === 'project'
          ? takeProjectAudit(values.audit, layer.source, config.audit, projectAudit, warnings)
          : values.audit;
      for (const [key, value] of Object.entries(audit)) {
        if (value !== undefined) Object.assign(config.audit, { [key]: value });
      }
    }
  }
  return { config, projectAudit, warnings };
}

/**
 * A project file may turn the sandbox on but never off, may turn the network off but never on,
 * may not let credentials through or show places in HOME, and may not describe the model.
 */
function mergeAgentSection(config: OyConfig, layer: ConfigLayer, warnings: string[]): void {
  const agent = layer.values.agent ?? {};
  const isProject = layer.kind === 'project';
  if (agent.sandbox !== undefined) {
    if (isProject && agent.sandbox !== 'on') {
      warnings.push(
        `${layer.source}: "agent.sandbox": "${agent.sandbox}" ignored; a project file may only turn the sandbox on`,
      );
    } else config.agent.sandbox = agent.sandbox;
  }
  if (agent.allowEnv !== undefined && agent.allowEnv.length > 0) {
    if (isProject) {
      warnings.push(
        `${layer.source}: "agent.allowEnv" ignored; a project file may not pass credentials to commands`,
      );
    } else config.agent.allowEnv.push(...agent.allowEnv);
  }
  if (agent.homePaths !== undefined && agent.homePaths.length > 0) {
    if (isProject) {
      warnings.push(
        `${layer.source}: "agent.homePaths" ignored; a project file may not show your home folder to commands`,
      );
    } else config.agent.homePaths = [...(config.agent.homePaths ?? []), ...agent.homePaths];
  }
  if (agent.network !== undefined) {
    if (isProject && agent.network) {
      warnings.push(
        `${layer.source}: "agent.network": true ignored; a project file may only turn the network off`,
      );
    } else config.agent.network = agent.network;
  }
  if (agent.contextWindow !== undefined) {
    // A fact about the user's model, like "models": a wrong one breaks requests or compacts needlessly.
    if (isProject) {
      warnings.push(
        `${layer.source}: "agent.contextWindow" ignored; a project file may not state facts about the user's model`,
      );
    } else config.agent.contextWindow = agent.contextWindow;
  }
}
