/**
 * The few words a stop or a denial uses for a label (`brief`): integrity, readers and at most
 * three sources, so that a person reading the message can tell whose data decided it.
 */
import { describe, expect, it } from "vitest";
import { Label } from "../../src/labels/index.js";
import { brief } from "../../src/interpreter/rules.js";

describe("a label in a few words", () => {
  it("says trusted and public for the user's own words", () => {
    expect(brief(Label.trusted())).toBe("trusted public");
  });
  it("names the sources of untrusted data", () => {
    expect(brief(Label.untrusted("email:eve@x.com"))).toBe("untrusted public from email:eve@x.com");
  });
  it("lists three readers in full and cuts a fourth", () => {
    expect(brief(Label.of({ readers: ["ann", "bob", "cy"], trusted: true }))).toBe("trusted readers ann, bob, cy");
    expect(brief(Label.of({ readers: ["ann", "bob", "cy", "dee"], trusted: true }))).toBe("trusted readers ann, bob, cy, …");
  });
  it("lists three sources in full and counts the rest", () => {
    expect(brief(Label.of({ sources: ["a", "b", "c"] }))).toBe("untrusted public from a, b, c");
    expect(brief(Label.of({ sources: ["a", "b", "c", "d", "e"] }))).toBe("untrusted public from a, b, c and 2 more");
  });
});
