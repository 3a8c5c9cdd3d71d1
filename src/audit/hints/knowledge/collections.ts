// How the standard libraries of the supported languages build and use lists and maps, so the flow
// can follow a value through one (`map.put("k", v)` then `map.get("k")`).

/** Methods that add to a list (`add`, `push`, `append`, `<<` is read separately). */
export const LIST_APPEND =
  /^(?:add|push|append|offer|addLast|put_nowait|enqueue|push_back|insert|addFirst|unshift|appendleft|extend|addAll|concat|write|print|println)$/;
/** Methods that put items at a list's front. */
export const LIST_PREPEND = /^(?:unshift|addFirst|appendleft)$/;
/** Methods that add every item of another list. */
export const LIST_EXTEND = /^(?:extend|addAll|concat)$/;
/** Methods that insert at a position (`list.insert(0, x)`, `list.add(0, x)`) when given one. */
export const LIST_INSERT_AT = /^(?:insert|add)$/;
/** Methods that copy every entry of another map. */
export const MAP_MERGE = /^(?:update|putAll|merge)$/;
/** String-builder methods that add text (`sb.insert(0, x)`, `sb.replace(...)`). */
export const TEXT_EDITS = /^(?:replace|insert|prepend)$/;
/** The classes whose static factories build lists (`Arrays.asList`, `List.of`, `Stream.of`). */
export const LIST_FACTORY_OWNERS = /^(?:Arrays|List|Set|Stream|Array|ImmutableList|Collections)$/;
/** Methods that store a map entry by key. */
export const MAP_PUT =
  /^(?:put|set|putIfAbsent|setdefault|store|merge|update|putAll|setAttribute|setProperty)$/;
/** Methods that remove from a list or map. */
export const LIST_REMOVE =
  /^(?:remove|pop|shift|removeFirst|removeLast|poll|delete|delete_at|splice|clear)$/;
/** Methods that read an element of a list or map. */
export const COLLECTION_READS =
  /^(?:get|getOrDefault|fetch|dig|at|pop|shift|first|last|item|elementAt|peek|poll|remove|values|nextElement|next|getFirst|getLast|setdefault)$/;
/** Constructors and factories of lists and sets. */
export const LIST_FACTORIES =
  /^(?:ArrayList|LinkedList|Vector|HashSet|LinkedHashSet|TreeSet|ArrayDeque|Set|Array|list|set|frozenset|tuple|asList|of|newArrayList|from|Stack|deque)$/;
/**
 * Constructors of maps, Python's `configparser` included: its `set(section, option, value)` and
 * `get(section, option)` address an entry by two keys.
 */
export const MAP_FACTORIES =
  /^(?:HashMap|LinkedHashMap|TreeMap|Hashtable|ConcurrentHashMap|Map|dict|OrderedDict|defaultdict|Properties|WeakMap|ofEntries|ConfigParser|RawConfigParser|SafeConfigParser)$/;
/** The methods of a two-key map (`configparser`): a store takes two keys and a value, a read two keys. */
export const TWO_KEY_PUT = /^set$/;
export const TWO_KEY_GET = /^(?:get|getint|getfloat|getboolean)$/;

/** The one key a two-key entry is kept under. */
export function twoKeyName(
  first: string | number | boolean,
  second: string | number | boolean,
): string {
  return `${String(first)}\u0000${String(second)}`;
}
