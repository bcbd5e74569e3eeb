// Entry of /embed.js. Placeholder until the loader lands (same change set).
export {};
