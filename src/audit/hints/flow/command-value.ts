import { INTERPRETER_PROGRAM, SHELL_PROGRAM, SHELL_SCRIPT_FLAG } from '../knowledge/processes.js';
import { joinAll, listValue, type FlowValue } from './flow-value.js';
import type { Span } from './flow-node.js';

/**
 * What a process call runs, from its first argument: a command line is all of it; of an argument
 * list built here, the program (its first item); for a shell or an interpreter (`["sh", "-c",
 * script]`, `["python3", path]`), also its flags and its first other argument, the script (a path or
 * inline code). A shell and flag chosen in branches (`sh -c` or `cmd.exe /c`) count too. Other
 * arguments handed to a fixed program are its data, not a command.
 */
export function commandOf(value: FlowValue): FlowValue {
  const items = value.items;
  if (items === undefined || items.length === 0) return value;
  const [program, flag] = items;
  if (program === undefined || program.taint !== 'clean') return program ?? value;
  const name = program.constant;
  if (name === undefined) {
    // Branches joined: no single name, but no request text either; read the script after `-c` or `/c`.
    const isScriptFlag =
      flag?.taint === 'clean' &&
      (flag.constant === undefined || SHELL_SCRIPT_FLAG.test(String(flag.constant)));
    return isScriptFlag ? joinAll([program, ...items.slice(2)]) : program;
  }
  if (!SHELL_PROGRAM.test(String(name)) && !INTERPRETER_PROGRAM.test(String(name))) return program;
  // Flags (clean constants: `-x`, `--eval`, Windows' `/c`) up to the first other argument: the script.
  const script = items.findIndex((item, at) => at > 0 && !isFlag(item));
  return joinAll(items.slice(0, script === -1 ? items.length : script + 1));
}

function isFlag(item: FlowValue): boolean {
  return (
    item.taint === 'clean' &&
    typeof item.constant === 'string' &&
    /^(?:-|\/[A-Za-z]$)/.test(item.constant)
  );
}

/**
 * The arguments of a call that takes a program and its arguments one by one, as one list: a single
 * list passed whole is that list; a list spread last (`args...`, `*args`) adds its items.
 */
export function argumentList(
  spans: readonly Span[],
  read: (span: Span) => FlowValue | undefined,
): FlowValue | undefined {
  const values: FlowValue[] = [];
  for (const span of spans) {
    const value = read(span);
    if (value === undefined) return undefined;
    values.push(value);
  }
  const [only] = values;
  if (values.length === 1 && only?.items !== undefined) return only;
  const last = values.at(-1);
  if (values.length > 1 && last?.items !== undefined)
    return listValue([...values.slice(0, -1), ...last.items]);
  return listValue(values);
}
