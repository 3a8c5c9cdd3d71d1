import { z } from 'zod';
import reportSchema from '../report/audit-report.schema.json' with { type: 'json' };

const { definitions, $schema, ...reportBody } = reportSchema;

const ref = (name: keyof typeof definitions) => ({ $ref: `#/definitions/${name}` });
const list = (items: object) => ({ type: 'array', items });
const strictObject = (properties: Record<string, object>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const text = { type: 'string' };
const textList = list(text);
const count = { type: 'integer', minimum: 0 };
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };

/**
 * The shard report's JSON schema, built on the report's own (`audit-report.schema.json`): its
 * definitions describe the findings and ledger entries here too, and it describes `report` itself.
 */
export const SHARD_REPORT_JSON_SCHEMA = {
  $schema,
  definitions,
  ...strictObject({
    oyShardReport: { const: 1 },
    shard: strictObject({
      index: { type: 'integer', minimum: 1 },
      count: { type: 'integer', minimum: 1 },
    }),
    identity: strictObject({
      oyVersion: text,
      gitCommit: nullable(text),
      isDirty: nullable({ type: 'boolean' }),
      pathFromTop: text,
      planHash: sha256,
      promptVersionHash: nullable(sha256),
      model: nullable(text),
      diffRefCommit: nullable(text),
      options: strictObject({
        scope: text,
        riskiest: nullable({ type: 'integer', minimum: 1 }),
        focus: textList,
        include: textList,
        exclude: textList,
        projectInclude: textList,
        projectExclude: textList,
        diffRef: nullable(text),
        history: { type: 'boolean' },
        maxFileBytes: count,
        chunkTokens: count,
        tokenHeadroom: { type: 'number' },
        encoding: text,
        maxCostUsd: nullable({ type: 'number' }),
        isOfflineByChoice: { type: 'boolean' },
      }),
    }),
    chunks: list(sha256),
    reviewedChunks: list(sha256),
    ledger: list(ref('ledgerEntry')),
    allowedSecretLines: list(
      strictObject({
        path: ref('path'),
        allowedSecretLines: list(strictObject({ line: ref('line'), digest: sha256 })),
      }),
    ),
    addedAllowLines: textList,
    historyAllowed: list(ref('historySecret')),
    review: nullable(
      strictObject({
        byChunk: list(
          strictObject({
            chunkId: sha256,
            verified: list(ref('finding')),
            unverified: list(ref('finding')),
          }),
        ),
        failedFiles: list(ref('ledgerEntry')),
        totals: strictObject({
          inputTokens: count,
          outputTokens: count,
          cacheReadTokens: count,
          cacheWriteTokens: count,
          costUsd: nullable({ type: 'number', minimum: 0 }),
        }),
        calls: count,
        cacheHits: count,
        isStoppedByCost: { type: 'boolean' },
      }),
    ),
    report: reportBody,
    digest: sha256,
  }),
};

let compiled: z.ZodType | undefined;

/** The schema as zod checks it, compiled on first use. */
export function shardReportValidator(): z.ZodType {
  return (compiled ??= z.fromJSONSchema(
    SHARD_REPORT_JSON_SCHEMA as Parameters<typeof z.fromJSONSchema>[0],
  ));
}
