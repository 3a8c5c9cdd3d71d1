import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/agent/tools/define-tool.js';
import type { Authorization, AuthorizationRequest } from '../../../src/agent/tools/tool-types.js';
import { makeToolContext } from './make-tool-context.js';

/** The one door: intend, then the policy, and only then plan (content) and execute. */

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-define-order-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function spyTool(steps: string[]) {
  return defineTool({
    name: 'write',
    kind: 'write',
    description: 'Records the order of its steps.',
    schema: z.object({ path: z.string() }),
    intend: (args) => {
      steps.push('intend');
      return { action: { kind: 'write', tool: 'write', path: args.path }, target: args.path };
    },
    plan: (_args, _context, target) => {
      steps.push('plan');
      return { preview: `preview of ${target}`, data: target };
    },
    execute: async (_args, _context, data) => {
      steps.push('execute');
      return { data };
    },
  });
}

async function runWith(
  decide: (request: AuthorizationRequest, steps: string[]) => Promise<Authorization>,
) {
  const steps: string[] = [];
  const context = makeToolContext(root, {
    overrides: {
      authorize: async (request) => {
        steps.push('authorize');
        return decide(request, steps);
      },
    },
  });
  const result = await spyTool(steps).run({ path: 'a.txt' }, context);
  return { steps, result };
}

describe('defineTool runs the steps in order', () => {
  it('never plans a refused call', async () => {
    const { steps, result } = await runWith(async () => ({ allowed: false, reason: 'no' }));
    expect(steps).toEqual(['intend', 'authorize']);
    expect(result.ok).toBe(false);
  });

  it('plans after an allow, once', async () => {
    const { steps } = await runWith(async () => ({ allowed: true }));
    expect(steps).toEqual(['intend', 'authorize', 'plan', 'execute']);
  });

  it('plans once for the approval preview, then executes with that plan', async () => {
    const { steps, result } = await runWith(async (request, seen) => {
      expect(await request.preparePreview?.()).toBe('preview of a.txt');
      seen.push('asked');
      return { allowed: true };
    });
    expect(steps).toEqual(['intend', 'authorize', 'plan', 'asked', 'execute']);
    expect(JSON.parse(result.content)).toEqual({ ok: true, data: 'a.txt' });
  });
});
