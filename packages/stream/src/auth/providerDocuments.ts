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

/**
 * Redeems the one-time code a provider flow came back with: the popup's sign-in (a token), or
 * the frame's connection from the profile (signed in: `connectedProvider`).
 */
export const REDEEM_PROVIDER_SIGN_IN = graphql(`
  mutation RedeemProviderSignIn($input: RedeemProviderSignInInput!) {
    redeemProviderSignIn(input: $input) {
      token
      connectedProvider
    }
  }
`);
