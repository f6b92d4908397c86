/**
 * JavaScript's operators over the interpreter's values. Labels are the caller's concern: the
 * rule for every operator is that its result joins the labels of its operands, plus the
 * contents of any object it converts to a primitive.
 */
import { charge, checkString } from "./state.js";
import { ARR, DATE, FN, OBJ, type Val, isRef, looseEq, toNum, toPrim, toStr, typeOf } from "./values.js";

export function add(a: Val, b: Val): Val {
  if (typeof a === "number" && typeof b === "number") return a + b;
  if (typeof a === "string" && typeof b === "string") return concat(a, b);
  const pa = toPrim(a);
  const pb = toPrim(b);
  if (typeof pa === "string" || typeof pb === "string") return concat(toStr(pa), toStr(pb));
  return toNum(pa) + toNum(pb);
}

export function concat(a: string, b: string): string {
  const n = a.length + b.length;
  if (n > 64) charge(2 * Math.min(a.length, b.length) + 16);
  return n > 1_000_000 ? checkString(a + b) : a + b;
}

export function arith(op: string, a: Val, b: Val): Val {
  const x = toNum(a);
  const y = toNum(b);
  switch (op) {
    case "-":
      return x - y;
    case "*":
      return x * y;
    case "/":
      return x / y;
    case "%":
      return x % y;
    case "**":
      return x ** y;
    case "|":
      return x | y;
    case "&":
      return x & y;
    case "^":
      return x ^ y;
    case "<<":
      return x << y;
    case ">>":
      return x >> y;
    case ">>>":
      return x >>> y;
  }
  throw new Error(`unknown operator ${op}`);
}

function compare(a: Val, b: Val): [string, string] | [number, number] {
  const pa = toPrim(a);
  const pb = toPrim(b);
  if (typeof pa === "string" && typeof pb === "string") return [pa, pb];
  return [toNum(pa), toNum(pb)];
}

export function relational(op: string, a: Val, b: Val): boolean {
  if (typeof a === "number" && typeof b === "number") {
    switch (op) {
      case "<":
        return a < b;
      case ">":
        return a > b;
      case "<=":
        return a <= b;
      default:
        return a >= b;
    }
  }
  const [x, y] = compare(a, b) as [number, number];
  switch (op) {
    case "<":
      return x < y;
    case ">":
      return x > y;
    case "<=":
      return x <= y;
    default:
      return x >= y;
  }
}

export function binary(op: string, a: Val, b: Val): Val {
  switch (op) {
    case "+":
      return add(a, b);
    case "===":
      return a === b;
    case "!==":
      return a !== b;
    case "==":
      return looseEq(a, b);
    case "!=":
      return !looseEq(a, b);
    case "<":
    case ">":
    case "<=":
    case ">=":
      return relational(op, a, b);
    default:
      return arith(op, a, b);
  }
}

export function unary(op: string, v: Val): Val {
  switch (op) {
    case "!":
      return !(typeof v === "object" ? v !== null : v);
    case "-":
      return -toNum(v);
    case "+":
      return toNum(v);
    case "~":
      return ~toNum(v);
    case "typeof":
      return typeOf(v);
    case "void":
      return undefined;
  }
  throw new Error(`unknown operator ${op}`);
}

/** `x instanceof Name` for the builtin names a program can write. */
export function instanceOf(v: Val, name: string): boolean {
  if (!isRef(v)) return false;
  switch (name) {
    case "Array":
      return v.k === ARR;
    case "Date":
      return v.k === DATE;
    case "Function":
      return v.k === FN;
    case "Object":
      return true;
    case "Error":
      return v.k === OBJ && v.cls !== undefined;
    case "Map":
    case "Set":
      return v.k === OBJ && v.coll?.kind === name;
    default:
      return v.k === OBJ && v.cls === name;
  }
}
