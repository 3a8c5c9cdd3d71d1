/** Marker left where the middle of an over-long string was cut. */
const CUT_MARKER = (chars: number): string => `\n…[${chars} characters cut]…\n`;

/**
 * Shrinks a result until its compact JSON fits `maxChars`: the longest string is cut to its head
 * and tail, repeatedly. Structure stays valid JSON and small fields (ok, exit codes) survive.
 */
export function capResult(value: unknown, maxChars: number): unknown {
  let current = value;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const size = JSON.stringify(current).length;
    if (size <= maxChars) return current;
    const longest = findLongestString(current);
    if (longest !== undefined && longest.length >= 200) {
      const keep = Math.max(100, longest.length - (size - maxChars) - 200);
      current = replaceString(current, longest, cutMiddle(longest, keep));
      continue;
    }
    const halved = halveLongestArray(current);
    if (halved === current) break;
    current = halved;
  }
  return current;
}

/** Many small items (search matches, listings): keep the first half of the longest list. */
function halveLongestArray(value: unknown): unknown {
  let longest: unknown[] | undefined;
  const visit = (item: unknown): void => {
    if (Array.isArray(item)) {
      if (longest === undefined || item.length > longest.length) longest = item;
      item.forEach(visit);
    } else if (item !== null && typeof item === 'object') Object.values(item).forEach(visit);
  };
  visit(value);
  if (longest === undefined || longest.length < 2) return value;
  const target = longest;
  const rebuild = (item: unknown): unknown => {
    if (item === target)
      return [
        ...target.slice(0, Math.ceil(target.length / 2)),
        `…${Math.floor(target.length / 2)} more cut`,
      ];
    if (Array.isArray(item)) return item.map(rebuild);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, rebuild(inner)]));
    }
    return item;
  };
  return rebuild(value);
}

function cutMiddle(text: string, keep: number): string {
  const head = Math.ceil(keep / 2);
  const tail = Math.floor(keep / 2);
  return `${text.slice(0, head)}${CUT_MARKER(text.length - keep)}${text.slice(text.length - tail)}`;
}

function findLongestString(value: unknown): string | undefined {
  let longest: string | undefined;
  const visit = (item: unknown): void => {
    if (typeof item === 'string') {
      if (longest === undefined || item.length > longest.length) longest = item;
    } else if (Array.isArray(item)) item.forEach(visit);
    else if (item !== null && typeof item === 'object') Object.values(item).forEach(visit);
  };
  visit(value);
  return longest;
}

function replaceString(value: unknown, target: string, replacement: string): unknown {
  let done = false;
  const visit = (item: unknown): unknown => {
    if (done) return item;
    if (item === target) {
      done = true;
      return replacement;
    }
    if (Array.isArray(item)) return item.map(visit);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, visit(inner)]));
    }
    return item;
  };
  return visit(value);
}
