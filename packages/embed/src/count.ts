// Entry of /count.js. Placeholder until the count script lands (same change set).
export {};
