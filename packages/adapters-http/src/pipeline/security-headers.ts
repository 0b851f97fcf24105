import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * A JSON API and one docs page served from here: nothing from elsewhere, no framing. Headers
 * that only old browsers or plug-ins read (IE8's X-Download-Options, Flash's
 * X-Permitted-Cross-Domain-Policies, the retired XSS auditor's X-XSS-Protection, DNS
 * prefetching of links a JSON body does not have, Origin-Agent-Cluster) are not sent: five
 * header writes on every answer, for no client this API has (docs/operations.md).
 */
export const SECURITY_HEADERS: Parameters<NestFastifyApplication['useSecurityHeaders']>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'style-src': ["'self'", "'unsafe-inline'"],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'frame-ancestors': ["'none'"],
      'form-action': ["'none'"],
    },
  },
  xFrameOptions: { action: 'deny' },
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};
