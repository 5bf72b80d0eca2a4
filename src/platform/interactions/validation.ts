/**
 * Valibot issues of a nested part of a request (an interaction's `data`) as a 400 50035 whose
 * field paths start at the request's root (`data.content`), like the HTTP edge's own errors.
 */
import * as v from 'valibot';
import { ApiError } from '../core/errors';

/** A 400 50035 naming each bad field under `prefix`. */
export function invalidFormFromIssuesPrefixed(issues: readonly v.BaseIssue<unknown>[], prefix: string): ApiError {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = v.getDotPath(issue);
    fields[path ? `${prefix}.${path}` : prefix] ??= issue.message;
  }
  return ApiError.invalidForm(fields);
}
