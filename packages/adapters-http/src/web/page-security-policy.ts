/**
 * The page's own Content-Security-Policy, stricter than the API's: its script, style, icon
 * and API calls come from this origin and nothing else does; no inline script or style; and
 * Trusted Types are required, so no string can reach an HTML sink (innerHTML and the like
 * throw): names and tags can only ever be text.
 */
export const PAGE_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** index.html names the current assets: a browser asks each time whether it still holds the current one. */
export const PAGE_CACHE_CONTROL = 'no-cache';

/** An asset's name carries its content's hash: a changed asset is a new name, so a copy never goes stale. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
