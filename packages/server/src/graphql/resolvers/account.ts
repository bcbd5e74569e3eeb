/** Resolvers of this area (filled in by the engineer who owns it). */
export const accountResolvers = {};
