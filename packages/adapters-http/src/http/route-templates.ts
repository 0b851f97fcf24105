import { Injectable } from '@nestjs/common';
import type { FastifyInstance, HTTPMethods } from 'fastify';

/** `:name`, optionally with a regular expression in parentheses (which never holds `/` here). */
const PARAMETER = /:([A-Za-z0-9_]+)(?:\([^)]*\))?/g;
const SEGMENT_PART = /(:[A-Za-z0-9_]+(?:\([^)]*\))?|\*)/;
const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface PathMethods {
  /** The route's template as the docs write it, e.g. `/plants/{id}`: never the path as sent, which may carry anything. */
  readonly template: string;
  readonly methods: readonly HTTPMethods[];
}

/**
 * The templates of every route the app registers (`/plants`, `/plants/:id`), so that a request
 * no route took can be told "this path exists, with other methods" (405) rather than "no such
 * route" (404). Fastify's own `hasRoute` compares templates, not paths: `/plants/5` is not a
 * route, `/plants/:id` is. Install before the routes are registered.
 */
@Injectable()
export class RouteTemplates {
  private readonly templates = new Map<string, RegExp>();
  private fastify: FastifyInstance | undefined;

  install(fastify: FastifyInstance): void {
    this.fastify = fastify;
    fastify.addHook('onRoute', (route) => this.add(route.url));
  }

  /**
   * The template a path falls under and the methods it has, for a request whose method is not
   * among them (a 405 with `Allow`). Undefined when no route has that path, or when one has it
   * with this very method: the router turned the request away for another reason, and an
   * `Allow` naming the method refused would contradict itself.
   */
  methodsInsteadOf(method: string, path: string): PathMethods | undefined {
    for (const [template, pattern] of this.templates) {
      if (!pattern.test(path)) continue;
      const methods = METHODS.filter((each) => this.fastify?.hasRoute({ method: each, url: template }) === true);
      if (methods.length === 0) continue;
      return methods.includes(method) ? undefined : { template: template.replace(PARAMETER, '{$1}'), methods };
    }
    return undefined;
  }

  private add(template: string): void {
    if (this.templates.has(template)) return;
    const source = template
      .split(SEGMENT_PART)
      .map((part) =>
        // A parameter takes one segment, never an empty one: the router matches none (`/docs/` is not `/docs/:asset`).
        part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
    this.templates.set(template, new RegExp(`^${source}$`));
  }
}
