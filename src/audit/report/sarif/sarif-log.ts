import type { SarifLevel } from './security-severity.js';

/** The part of the SARIF 2.1.0 object model that oy writes. */
export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: [SarifRun];
}

export interface SarifRun {
  tool: { driver: SarifDriver };
  originalUriBaseIds: Record<string, { description: SarifText }>;
  invocations: SarifInvocation[];
  results: SarifResult[];
  properties: Record<string, unknown>;
}

export interface SarifDriver {
  name: 'oy';
  version: string;
  informationUri?: string;
  rules: SarifRule[];
}

export interface SarifRule {
  id: string;
  shortDescription: SarifText;
  fullDescription: SarifText;
  defaultConfiguration: { level: SarifLevel };
  properties: { 'security-severity': string; tags: string[] };
}

export interface SarifInvocation {
  executionSuccessful: boolean;
  commandLine: string;
  endTimeUtc?: string;
  toolExecutionNotifications: SarifNotification[];
}

export interface SarifNotification {
  level: SarifLevel;
  message: SarifText;
  locations: SarifLocation[];
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: SarifText;
  locations: SarifLocation[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
}

export interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId: typeof SOURCE_ROOT_ID };
    region?: { startLine: number; endLine?: number };
  };
}

export interface SarifText {
  text: string;
}

/** The base every result URI is relative to: the audited workspace. */
export const SOURCE_ROOT_ID = '%SRCROOT%';
