// Entry of /embed/auth: the sign-in popup. Placeholder until the popup lands (same change set).
export {};
