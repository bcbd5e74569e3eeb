// Placeholder until the sign-in bar lands (same change set).
export function AuthBar() {
  return <div class="parley-authbar" />;
}
