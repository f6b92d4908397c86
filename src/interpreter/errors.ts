/** Errors a program can catch: builtins and the interpreter raise them as Error objects with labels. */
import type { Label } from "../labels/index.js";
import { join2, mayThrowOn } from "./rules.js";
import { ProgramThrow, st } from "./state.js";
import { type Obj, newObj } from "./values.js";

/** Makes an Error object whose name and message carry `l`. */
export function makeError(cls: string, message: string, l: Label): Obj {
  const e = newObj();
  e.cls = cls;
  e.props.set("name", { v: cls, l });
  e.props.set("message", { v: message, l });
  return e;
}

/**
 * Throws a catchable error decided by data labelled `decidedBy`: the error, and the fact that
 * it was thrown, carry that label and the pc.
 */
export function throwError(cls: string, message: string, decidedBy: Label): never {
  mayThrowOn(decidedBy);
  const l = join2(decidedBy, st.pc);
  throw new ProgramThrow(makeError(cls, message, l), l);
}

/**
 * Throws a failed tool call's error (`label`: the failure's, untrusted) as {@link throwError}
 * does, tagged with the tool and the failure kind and with `reached`: what decided that the
 * call was made where it was and with what (its inputs and the pc), i.e. the error's place
 * label without the failure's own label. Rules that raise a pending throw's place raise
 * `reached` alike; a `throw` statement makes a new, untagged throw.
 */
export function throwCallFailure(cls: string, message: string, label: Label, inputs: Label, call: { tool: string; kind: string }): never {
  const decidedBy = join2(label, inputs);
  mayThrowOn(decidedBy);
  const l = join2(decidedBy, st.pc);
  throw new ProgramThrow(makeError(cls, message, l), l, undefined, undefined, undefined, { ...call, reached: join2(inputs, st.pc) });
}

export function typeError(message: string, decidedBy: Label): never {
  return throwError("TypeError", message, decidedBy);
}
