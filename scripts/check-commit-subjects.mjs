#!/usr/bin/env node
// Fails when a commit subject is longer than 72 characters (issue 22): the one-line summary
// `git log --oneline`, GitHub and e-mail show; the detail goes in the body, after a blank line.
//
// It checks the commits after START up to HEAD: the history before START has long subjects and is
// not rewritten. When START is not in this clone (a shallow clone that stops after it, or a fork
// without it), it checks every commit that is there, and says so. Outside a git checkout (an
// unpacked tarball) there is nothing to check.
//
//   node scripts/check-commit-subjects.mjs              # START..HEAD
//   node scripts/check-commit-subjects.mjs --from <rev> # <rev>..HEAD instead
//
// Run by `npm run lint` (so by `npm test` and .ci/run). The subject is git's: the first paragraph
// of the message, its lines joined by spaces. Length counts Unicode code points, not bytes.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The first commit whose successors must keep the rule (the commit itself is not checked). */
export const START = "3daa0de2537175b1258cc6c29e0dba693f4d4095";
export const MAX_SUBJECT = 72;

/** The commits whose subject is longer than max, from a list of { hash, subject }. */
export function longSubjects(commits, max = MAX_SUBJECT) {
  return commits.filter((commit) => [...commit.subject].length > max);
}

/** Parses `git log --format=%H%x00%s%x00` output. */
export function parseLog(text) {
  const fields = text.split("\0");
  const commits = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    commits.push({ hash: fields[i].trim(), subject: fields[i + 1] });
  }
  return commits;
}

function git(args, cwd) {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
}

function succeeds(args, cwd) {
  try {
    git(args, cwd);
    return true;
  } catch {
    return false;
  }
}

function main(argv) {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log("Usage: node scripts/check-commit-subjects.mjs [--from <rev>]  (default: --from " + START.slice(0, 7) + ")");
    return 0;
  }
  const fromAt = argv.indexOf("--from");
  const from = fromAt >= 0 ? argv[fromAt + 1] : START;
  if (!from) {
    console.error("--from needs a revision.");
    return 2;
  }

  const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
  if (!succeeds(["rev-parse", "--git-dir"], root)) {
    console.log("Commit subjects: not a git checkout, nothing to check.");
    return 0;
  }
  if (!succeeds(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], root)) {
    console.log("Commit subjects: no commits yet, nothing to check.");
    return 0;
  }

  let range;
  if (succeeds(["cat-file", "-e", `${from}^{commit}`], root)) {
    range = [`${from}..HEAD`];
  } else {
    const shallow = git(["rev-parse", "--is-shallow-repository"], root).trim() === "true";
    console.log(`Commit subjects: ${from.slice(0, 12)} is not in this ${shallow ? "shallow " : ""}clone; checking every commit that is.`);
    range = ["HEAD"];
  }

  const commits = parseLog(git(["log", "--format=%H%x00%s%x00", ...range, "--"], root));
  const long = longSubjects(commits);
  if (long.length === 0) {
    console.log(`Commit subjects: ${commits.length} checked, none longer than ${MAX_SUBJECT} characters.`);
    return 0;
  }
  console.error(`Commit subjects longer than ${MAX_SUBJECT} characters (put the detail in the body, after a blank line):`);
  for (const commit of long) {
    console.error(`  ${commit.hash.slice(0, 10)} (${[...commit.subject].length}) ${commit.subject}`);
  }
  console.error("Reword them before merging (git rebase -i, `reword`).");
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
