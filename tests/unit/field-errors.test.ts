import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsOf } from "#server/contracts/field-errors";
import { Invalid } from "#server/errors";

const schema = z
  .object({
    email: z.email("Please enter a valid email address"),
    name: z
      .string()
      .min(3, "Name must be at least 3 characters")
      .regex(/^[a-z ]+$/i, "Letters only"),
    address: z.object({ zipCode: z.string().min(5, "ZIP must be 5 digits") }),
  })
  .refine((v) => v.name !== "admin", "That name is reserved.");

const errorOf = (value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected the value to be refused");
  return parsed.error;
};

describe("fieldErrorsOf", () => {
  it("keys messages by the field's dotted path, every message of a field in order", () => {
    expect(fieldErrorsOf(errorOf({ email: "nope", name: "J1", address: { zipCode: "12" } }))).toEqual({
      email: ["Please enter a valid email address"],
      name: ["Name must be at least 3 characters", "Letters only"],
      "address.zipCode": ["ZIP must be 5 digits"],
    });
  });

  it("files a message about the whole value under the empty key", () => {
    expect(fieldErrorsOf(errorOf({ email: "a@example.com", name: "admin", address: { zipCode: "12345" } }))).toEqual({
      "": ["That name is reserved."],
    });
  });
});

describe("Invalid.fromZod", () => {
  it("leads with the first message and keeps every field's", () => {
    const error = Invalid.fromZod(errorOf({ email: "a@example.com", name: "J", address: { zipCode: "1" } }));
    expect(error).toBeInstanceOf(Invalid);
    expect(error.message).toBe("Name must be at least 3 characters");
    expect(error.fieldErrors).toEqual({ name: ["Name must be at least 3 characters"], "address.zipCode": ["ZIP must be 5 digits"] });
  });
});
