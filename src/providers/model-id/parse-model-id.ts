import { UsageError } from '../../shared/errors.js';
import type { ModelRef, ProviderName } from '../types.js';
import {
  BARE_PATTERNS,
  FIXED_PREFIXES,
  HIGHEST_PORT,
  LOCAL_PREFIX_PATTERN,
  PREFIX_EXAMPLES,
  PREFIX_SEPARATOR,
} from './model-id-prefixes.js';
import { suggestPrefix } from './suggest-prefix.js';

const PREFIX_HINT =
  `use one of ${PREFIX_EXAMPLES.join(', ')} (for example anthropic::claude-haiku-4-5); ` +
  'bare claude-*, gpt-*, o1, o3 and o4 ids need no prefix';

/** Parses `[provider::]model` (README.md "Models and providers"); anything it cannot place is a usage error that suggests the prefixes. */
export function parseModelId(text: string): ModelRef {
  const id = text.trim();
  if (id === '') throw new UsageError('the model id is empty', { hint: PREFIX_HINT });
  // Whitespace or control characters are never part of a model name; they are a quoting mistake.
  if (/[\s\p{Cc}]/u.test(id)) {
    throw new UsageError(`model id ${JSON.stringify(id)} contains spaces or control characters`, {
      hint: PREFIX_HINT,
    });
  }
  const separator = id.indexOf(PREFIX_SEPARATOR);
  if (separator === -1) return parseBareId(id);

  const prefix = id.slice(0, separator);
  const model = id.slice(separator + PREFIX_SEPARATOR.length);
  if (model === '') {
    throw new UsageError(`model id ${JSON.stringify(id)} names no model after "${prefix}::"`, {
      hint: `give the model too, such as ${prefix}::<model>`,
    });
  }
  const provider = FIXED_PREFIXES.get(prefix);
  if (provider) return { provider, model, id: `${prefix}::${model}` };
  const local = LOCAL_PREFIX_PATTERN.exec(prefix);
  if (local) return parseLocalId(id, Number(local[1]), model);

  const closest = suggestPrefix(prefix);
  const guess = closest ? `did you mean ${closest}::${model}? ` : '';
  throw new UsageError(`model id ${JSON.stringify(id)} has an unknown provider "${prefix}::"`, {
    hint: `${guess}${PREFIX_HINT}`,
  });
}

function parseBareId(id: string): ModelRef {
  const match = BARE_PATTERNS.find(({ pattern }) => pattern.test(id));
  if (match) return withPrefix(match.provider, id);
  // `anthropic:claude-x`: one colon where two were meant.
  const single = /^([\w-]+):(?!:)(.+)$/.exec(id);
  const closest = single ? suggestPrefix(single[1]!) : undefined;
  const guess = single && closest ? `did you mean ${closest}::${single[2]}? ` : '';
  throw new UsageError(`model id ${JSON.stringify(id)} has no provider prefix oy can infer`, {
    hint: `${guess}${PREFIX_HINT}`,
  });
}

function parseLocalId(id: string, port: number, model: string): ModelRef {
  if (!Number.isSafeInteger(port) || port < 1 || port > HIGHEST_PORT) {
    throw new UsageError(
      `model id ${JSON.stringify(id)}: the port in local-<port>:: must be from 1 to ${HIGHEST_PORT}`,
      { hint: 'such as local-8080::my-model for a server on http://127.0.0.1:8080/v1' },
    );
  }
  return { provider: 'local', model, id: `local-${port}::${model}`, port };
}

function withPrefix(provider: ProviderName, model: string): ModelRef {
  return { provider, model, id: `${provider}::${model}` };
}
