// The user moderation mutations, written once for the stream's ban form and the console's
// community table, user drawer and ban dialog. This is `@parley/transport/user-actions`, not part
// of the transport's index: only moderators' lazily loaded screens need it, and the index is the
// first chunk every reader loads.
//
// Operation names are stable: the clients' tests answer them with msw by name. Each client also
// exports the documents it sends from one of its own modules, because
// scripts/persistedDocuments.ts collects operations from the clients' sources only.
//
// Each document is marked pure so that a bundle keeps only those it sends: the stream's ban form
// needs BanUser alone, and a bundler cannot tell on its own that building a document has no
// side effect.
import { graphql } from './graphql';

/**
 * What a user action changes, and so what each one answers with. The clients' document cache
 * refetches every query holding a `User` after any of them, so no caller reads more than this.
 */
export const UserStanding = /* @__PURE__ */ graphql(
  `fragment UserStanding on User { id role status suspendedUntil }`,
);

/** Bans a user; `message`, when given, is emailed to them. */
export const BAN_USER_MUTATION = /* @__PURE__ */ graphql(
  `
    mutation BanUser($input: BanUserInput!) {
      banUser(input: $input) { user { ...UserStanding } }
    }
  `,
  [UserStanding],
);

/** Lifts a ban or a suspension (the schema carries no message for it). */
export const UNBAN_USER_MUTATION = /* @__PURE__ */ graphql(
  `
    mutation UnbanUser($input: UserIdInput!) {
      unbanUser(input: $input) { user { ...UserStanding } }
    }
  `,
  [UserStanding],
);

/** Suspends a user until `until`; `message`, when given, is emailed to them. */
export const SUSPEND_USER_MUTATION = /* @__PURE__ */ graphql(
  `
    mutation SuspendUser($input: SuspendUserInput!) {
      suspendUser(input: $input) { user { ...UserStanding } }
    }
  `,
  [UserStanding],
);

/** Turns a user's pre-moderation on or off; `message`, when given, is emailed to them. */
export const SET_USER_PREMOD_MUTATION = /* @__PURE__ */ graphql(
  `
    mutation SetUserPremod($input: SetUserPremodInput!) {
      setUserPremod(input: $input) { user { ...UserStanding } }
    }
  `,
  [UserStanding],
);

/** Gives a user a role (admins only); `message`, when given, is emailed to them. */
export const SET_USER_ROLE_MUTATION = /* @__PURE__ */ graphql(
  `
    mutation SetUserRole($input: SetUserRoleInput!) {
      setUserRole(input: $input) { user { ...UserStanding } }
    }
  `,
  [UserStanding],
);
