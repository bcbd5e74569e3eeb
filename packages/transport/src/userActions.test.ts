import { readFileSync } from 'node:fs';
import { print } from '@0no-co/graphql.web';
import type { DocumentNode } from '@0no-co/graphql.web';
import { ROLES } from '@parley/contract';
import type { Role } from '@parley/contract';
import { buildSchema, GraphQLEnumType, parse, validate } from 'graphql';
import type { VariablesOf } from './graphql';
import {
  BAN_USER_MUTATION,
  SET_USER_PREMOD_MUTATION,
  SET_USER_ROLE_MUTATION,
  SUSPEND_USER_MUTATION,
  UNBAN_USER_MUTATION,
} from './userActions';

// The clients' type checks (gql.tada check) cover their own sources only: these documents are
// checked against the schema here.
const schema = buildSchema(
  readFileSync(require.resolve('@parley/contract/schema.graphql'), 'utf8'),
);

/** True only when A and B are the same type. */
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// The role a typed document may send is the schema's `Role`: a role added to or removed from
// schema.graphql and not from ROLES fails to compile here.
const rolesMatchSchema: Equal<Role, VariablesOf<typeof SET_USER_ROLE_MUTATION>['input']['role']> =
  true;

describe('ROLES', () => {
  it('holds every value of the schema’s Role enum, each once', () => {
    const role = schema.getType('Role');
    if (!(role instanceof GraphQLEnumType)) throw new Error('schema.graphql has no enum Role');
    expect([...ROLES].sort()).toEqual(
      role
        .getValues()
        .map((value) => value.name)
        .sort(),
    );
    expect(new Set(ROLES).size).toBe(ROLES.length);
    expect(rolesMatchSchema).toBe(true);
  });
});

describe('user action mutations', () => {
  const documents: [string, string, DocumentNode][] = [
    ['BanUser', 'banUser', BAN_USER_MUTATION],
    ['UnbanUser', 'unbanUser', UNBAN_USER_MUTATION],
    ['SuspendUser', 'suspendUser', SUSPEND_USER_MUTATION],
    ['SetUserPremod', 'setUserPremod', SET_USER_PREMOD_MUTATION],
    ['SetUserRole', 'setUserRole', SET_USER_ROLE_MUTATION],
  ];

  it.each(documents)(
    '%s sends %s(input) and is valid against schema.graphql',
    (name, field, document) => {
      const text = print(document);
      expect(validate(schema, parse(text))).toEqual([]);
      // The clients' tests answer these operations by name.
      expect(text).toMatch(new RegExp(`^mutation ${name}\\(\\$input: \\w+!\\) \\{\\s+${field}\\(`));
    },
  );

  it.each(documents)('%s answers with the user’s standing', (_name, _field, document) => {
    const fragment = document.definitions.find((d) => d.kind === 'FragmentDefinition');
    expect(fragment && print(fragment)).toBe(
      'fragment UserStanding on User {\n  id\n  role\n  status\n  suspendedUntil\n}',
    );
    expect(print(document)).toContain('user {\n      ...UserStanding\n    }');
  });
});
