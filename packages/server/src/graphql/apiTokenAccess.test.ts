import { buildSchema } from 'graphql';
import { ParleyError } from '../ParleyError';
import { API_TOKEN_SCOPES, MUTATIONS_BY_SCOPE, requireTokenMaySet } from './apiTokenAccess';
import { guardMutations, mergeResolvers } from './createParleySchema';
import { resolverMaps } from './resolvers';
import { typeDefs } from './typeDefs';

// Every mutation of the schema goes through the API-token check: one a scope's allow-list does
// not name is refused before its resolver runs, whatever the resolver itself checks.
const mutationFields = Object.keys(buildSchema(typeDefs).getMutationType()!.getFields()).sort();

describe('API token access', () => {
  it('allows only mutations the schema has, each scope those of the narrower ones too', () => {
    for (const scope of API_TOKEN_SCOPES) {
      for (const name of MUTATIONS_BY_SCOPE[scope]) expect(mutationFields).toContain(name);
    }
    expect([...MUTATIONS_BY_SCOPE.READ]).toEqual([]);
    for (const name of MUTATIONS_BY_SCOPE.MODERATE) {
      expect(MUTATIONS_BY_SCOPE.ADMIN.has(name)).toBe(true);
    }
  });

  it.each(API_TOKEN_SCOPES)(
    'runs for a %s token only the mutations its list names',
    async (scope) => {
      const ran: string[] = [];
      const originals = Object.fromEntries(
        mutationFields.map((field) => [field, () => ran.push(field)]),
      );
      expect(Object.keys(mergeResolvers(resolverMaps)['Mutation']!).sort()).toEqual(mutationFields);
      const guarded = guardMutations(originals) as Record<string, (...args: unknown[]) => unknown>;
      const ctx = { apiToken: { scope } };
      const refused: string[] = [];
      for (const field of mutationFields) {
        try {
          await guarded[field]!({}, {}, ctx, {});
        } catch (error) {
          expect(error).toBeInstanceOf(ParleyError);
          expect((error as ParleyError).code).toBe('FORBIDDEN');
          refused.push(field);
        }
      }
      expect(ran).toEqual(mutationFields.filter((f) => MUTATIONS_BY_SCOPE[scope].has(f)));
      expect(refused).toEqual(mutationFields.filter((f) => !MUTATIONS_BY_SCOPE[scope].has(f)));
      // A signed-in session (no token) is never stopped here.
      ran.length = 0;
      for (const field of mutationFields) await guarded[field]!({}, {}, { apiToken: null }, {});
      expect(ran).toEqual(mutationFields);
    },
  );

  it('refuses a token the settings of the mail server and of signing in', () => {
    const token = { scope: 'ADMIN' } as Parameters<typeof requireTokenMaySet>[0];
    expect(() => requireTokenMaySet(token, { reportThreshold: 4 })).not.toThrow();
    expect(() => requireTokenMaySet(token, { smtpPassword: 'x' })).toThrow(/smtpPassword/);
    expect(() => requireTokenMaySet(token, { customCssUrl: 'https://x.example/a.css' })).toThrow(
      /customCssUrl/,
    );
    expect(() => requireTokenMaySet(null, { smtpPassword: 'x' })).not.toThrow();
  });
});
