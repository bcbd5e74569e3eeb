// Placeholder until this route lands (same change set).
export function ModeratePage() {
  return (
    <main className="page">
      <h1>ModeratePage</h1>
    </main>
  );
}
