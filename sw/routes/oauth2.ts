/**
 * OAuth2 endpoints (RFC 6749 / 7009 / 7636).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http';

/** The OAuth2 routes, mounted at `/oauth2`, `/api/oauth2` and `/api/v10/oauth2`. */
export function oauth2Routes(): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
