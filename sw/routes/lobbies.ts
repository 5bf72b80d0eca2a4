/**
 * `/lobbies` routes.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http';

/** The `/lobbies` routes. */
export function lobbyRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
