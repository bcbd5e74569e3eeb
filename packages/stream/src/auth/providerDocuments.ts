import { graphql } from '@parley/transport/graphql';

/** The sign-in providers the story's site offers (the popup's buttons, the profile's list). */
export const SIGN_IN_PROVIDERS = graphql(`
  query SignInProviders($storyURL: String!) {
    signInProviders(storyURL: $storyURL) {
      id
      kind
      name
    }
  }
`);
