import { createHash } from 'node:crypto';

/** sha256 (hex) of a shard report's body: every key but `digest` and `oySeal`, in written order. */
export function shardDigest(document: Record<string, unknown>): string {
  const { digest: _digest, oySeal: _seal, ...body } = document;
  return createHash('sha256')
    .update('oy-shard-report/v1\0')
    .update(JSON.stringify(body))
    .digest('hex');
}
