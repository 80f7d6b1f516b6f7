import type * as z from 'zod/v4/core';
import { type AppError, fail } from './errors.ts';

/** One problem of a request, named by the dotted path of the value it is about (`oauth.resources.0`). */
export interface Issue {
  path: string;
  message: string;
}

/**
 * zod's issues as the API names them: an unknown key of a strict object is its own issue at the
 * key's path (zod reports the keys at the object's path), so `details.issues[].path` always names
 * the wrong key.
 */
function issuesOf(issues: readonly z.$ZodIssue[]): Issue[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: [...issue.path, key].join('.'),
          message: `Unrecognized key: "${key}"`,
        }))
      : [{ path: issue.path.join('.'), message: issue.message }],
  );
}

/** 400 VALIDATION_ERROR naming every problem of one part of the request. */
export const invalidRequest = (part: string, issues: readonly z.$ZodIssue[]): AppError =>
  fail('invalidRequest', `The request ${part} is not valid`, { issues: issuesOf(issues) });
