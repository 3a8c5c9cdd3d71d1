import {
  INLINE_CODE_FLAG,
  INTERPRETER_PROGRAM,
  SHELL_PROGRAM,
  SHELL_SCRIPT_FLAG,
} from '../knowledge/processes.js';
import { joinAll, type FlowValue } from './flow-value.js';

/**
 * What a process call runs, from its first argument: a command line is all of it; of an argument
 * list built here, the program (its first item), or, when the list starts a shell with its script
 * flag (`["sh", "-c", script]`, a shell and flag chosen in branches included), the script after it.
 * or an interpreter's script. Other arguments handed to a fixed program are its data, not a command.
 */
export function commandOf(value: FlowValue): FlowValue {
  const items = value.items;
  if (items === undefined || items.length === 0) return value;
  const [program, flag] = items;
  const isShell =
    program !== undefined &&
    program.taint === 'clean' &&
    (program.constant === undefined || SHELL_PROGRAM.test(String(program.constant)));
  // A flag joined from branches (`-c` or `/c`) has no single constant, but is still no request text.
  const isScriptFlag =
    flag !== undefined &&
    flag.taint === 'clean' &&
    (flag.constant === undefined || SHELL_SCRIPT_FLAG.test(String(flag.constant)));
  if (isShell && isScriptFlag) return joinAll([program, ...items.slice(2)]);
  // An interpreter runs its first argument (`["python3", script]`), or the code after its flag.
  if (
    program !== undefined &&
    typeof program.constant === 'string' &&
    INTERPRETER_PROGRAM.test(program.constant) &&
    flag !== undefined
  ) {
    const isInline = typeof flag.constant === 'string' && INLINE_CODE_FLAG.test(flag.constant);
    return isInline ? (items[2] ?? flag) : flag;
  }
  return program ?? value;
}
