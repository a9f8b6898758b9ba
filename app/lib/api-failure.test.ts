import { describe, expect, it } from "vitest";
import { ApiError } from "./api.ts";
import { isSessionEnded } from "./api-failure.ts";

describe("isSessionEnded", () => {
  it("is told by the status 401, whatever the answer's words", () => {
    expect(isSessionEnded(new ApiError(401, '{"message":"Unauthorized"}', "Unauthorized"))).toBe(
      true,
    );
    expect(isSessionEnded(new ApiError(401, "", "Unauthorized"))).toBe(true);
    expect(isSessionEnded(new ApiError(401, '{"message":"Session ended"}', ""))).toBe(true);
  });

  it("is not a refusal of another status, nor an error that is no call's answer", () => {
    expect(isSessionEnded(new ApiError(403, '{"message":"Unauthorized"}', "Forbidden"))).toBe(
      false,
    );
    expect(isSessionEnded(new ApiError(500, "", "Internal Server Error"))).toBe(false);
    expect(isSessionEnded(new Error("401: Unauthorized"))).toBe(false);
  });
});
