import { findDeprecation } from '../../providers/catalogue/find-deprecation.js';
import { listCredentialPresence } from '../../providers/list-credential-presence.js';
import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import { describeModelFacts } from '../model/describe-model-facts.js';
import {
  resolveModelId,
  type ModelIdCandidates,
} from '../../providers/model-id/resolve-model-id.js';
import { resolveProviderSettings } from '../../providers/resolve-provider-settings.js';
import type { ModelRef } from '../../providers/types.js';
import type { DoctorCheck } from './doctor-check.js';

export interface ModelCheck {
  checks: DoctorCheck[];
  /** The resolved model, for `--online`; null when none is set or it is invalid. */
  ref: ModelRef | null;
}

/** The resolved model and, when there is one, whether its credentials are present (required). */
export function checkModel(
  candidates: ModelIdCandidates,
  configFile: string,
  env: NodeJS.ProcessEnv,
): ModelCheck {
  let resolved;
  try {
    resolved = resolveModelId(candidates);
  } catch (error) {
    const hint = (error as { hint?: string }).hint;
    return {
      ref: null,
      checks: [
        {
          id: 'model',
          status: 'fail',
          detail: (error as Error).message,
          ...(hint ? { hint } : {}),
        },
      ],
    };
  }
  if (resolved === null) {
    return {
      ref: null,
      checks: [
        {
          id: 'model',
          status: 'info',
          detail: 'none: audits run offline',
          hint: 'set one with oy model <id>; oy model lists them',
          data: { id: null },
        },
      ],
    };
  }
  const { ref, source } = resolved;
  const from = source === 'config' ? configFile : source;
  const deprecatedUntil = findDeprecation(ref);
  const modelCheck: DoctorCheck = {
    id: 'model',
    status: deprecatedUntil ? 'warn' : 'ok',
    detail: `${ref.id} (provider ${ref.provider}, from ${from})${deprecatedUntil ? `: deprecated, end of life ${deprecatedUntil}` : ''}`,
    ...(deprecatedUntil ? { hint: 'choose a newer model: oy model lists them' } : {}),
    data: { id: ref.id, provider: ref.provider, source, deprecatedUntil },
  };
  return {
    ref,
    checks: [modelCheck, checkModelCredentials(ref, env), describeFactsOf(ref, configFile)],
  };
}

/** The facts requests are built from, and whether the config's `models` supplied any. */
function describeFactsOf(ref: ModelRef, configFile: string): DoctorCheck {
  const facts = modelFactsFor(ref);
  const from = ref.facts ? `${configFile} "models" over the built-in table` : 'the built-in table';
  return {
    id: 'model-facts',
    status: 'info',
    detail: `${describeModelFacts(facts)} (from ${from})`,
    data: { ...facts, fromConfig: ref.facts !== undefined },
  };
}

function checkModelCredentials(ref: ModelRef, env: NodeJS.ProcessEnv): DoctorCheck {
  try {
    resolveProviderSettings(ref, env);
  } catch (error) {
    const hint = (error as { hint?: string }).hint;
    return {
      id: 'model-credentials',
      status: 'fail',
      detail: (error as Error).message,
      ...(hint ? { hint } : {}),
    };
  }
  const presence = listCredentialPresence(env).find((entry) => entry.provider === ref.provider);
  const found = presence?.found ?? [];
  if (ref.provider === 'bedrock' && !presence?.isPresent) {
    return {
      id: 'model-credentials',
      status: 'warn',
      detail: `no AWS credentials visible for ${ref.id} (${found.join(', ') || 'nothing set'})`,
      hint: 'set AWS_PROFILE or AWS access keys, or rely on an instance role; oy doctor --online proves it',
      data: { found },
    };
  }
  const what =
    ref.provider === 'local' || ref.provider === 'ollama'
      ? `no key needed${found.length > 0 ? ` (${found.join(', ')} set)` : ''}`
      : `present (${found.join(', ')})`;
  return { id: 'model-credentials', status: 'ok', detail: `${ref.id}: ${what}`, data: { found } };
}
