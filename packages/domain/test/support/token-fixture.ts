import { AuthenticateToken, IssueToken, ListTokens, RevokeToken } from '@plantstore/domain';
import { DeterministicTokenSecrets, FixedClock, InMemoryTokenRepository } from '@plantstore/domain/testing';

/** The token use cases wired to one set of fakes, as an app's composition root would. */
export function tokenFixture() {
  const tokens = new InMemoryTokenRepository();
  const secrets = new DeterministicTokenSecrets();
  const clock = new FixedClock('2025-06-01T12:00:00.000Z');
  return {
    tokens,
    secrets,
    clock,
    issue: new IssueToken(tokens, secrets, clock),
    authenticate: new AuthenticateToken(tokens, secrets, clock),
    revoke: new RevokeToken(tokens, clock),
    list: new ListTokens(tokens),
  };
}
