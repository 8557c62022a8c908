import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A route descriptor: the one description of an endpoint. The server registers and validates with it,
 * OpenAPI is generated from it and the web client is typed by it.
 */
export interface RouteDescriptor<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Fastify path syntax: `/v1/voices/:voice_id`. */
  path: string;
  summary: string;
  tags: readonly string[];
  body?: Body;
  query?: Query;
  params?: Params;
  /** The 2xx response body. */
  response: Response;
  /** HTTP status of a success; 200 unless stated. */
  successStatus?: number;
  /** Other statuses whose body is not the error shape (e.g. a 503 health report). */
  otherResponses?: Readonly<Record<number, z.ZodType>>;
}

/** Declares a route descriptor with its schema types preserved. */
export function defineRoute<
  Body extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Params extends z.ZodType | undefined = undefined,
  Response extends z.ZodType = z.ZodType,
>(route: RouteDescriptor<Body, Query, Params, Response>): RouteDescriptor<Body, Query, Params, Response> {
  return route;
}

/** Fills `:name` segments of a descriptor's path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}
