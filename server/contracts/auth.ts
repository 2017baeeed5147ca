import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";

/** Shared by the login form, tRPC and `POST /api/login`. Messages are the spec's, exactly. */
export const loginSchema = z.object({
  username: z.string({ error: "Username is required" }).trim().min(1, "Username is required"),
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  username: z
    .string({ error: "Username is required" })
    .trim()
    .min(1, "Username is required")
    .max(50, "Username must be at most 50 characters"),
  password: z
    .string({ error: "Password must be at least 6 characters" })
    .min(6, "Password must be at least 6 characters")
    .max(256, "Password must be at most 256 characters"),
  email: z.string({ error: "Please enter a valid email address" }).trim().pipe(z.email("Please enter a valid email address")),
  isAdmin: z.boolean().optional(),
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The current user as every client sees it. */
export interface PublicUser {
  id: number;
  username: string;
  email: string;
  isAdmin: boolean;
}

/** The login screen's loader (/auth and /admin/login): the launch it names and where a sign-in goes next. */
export interface LoginLoaderData {
  /** The countdown's launch as a sentence in store time; null when the setting is not a date. */
  launchesAt: string | null;
  launched: boolean;
  brand: string;
  /** Set when the password was right but the browser dropped the session cookie. */
  signInNotKept: string | null;
  redirectTo: string;
}

/** A refused sign-in, for the form to show (a successful one redirects). */
export type LoginActionData = SubmissionResult<string[]>;
