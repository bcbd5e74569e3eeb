// Placeholder until this route lands (same change set).
export function StoriesPage() {
  return (
    <main className="page">
      <h1>StoriesPage</h1>
    </main>
  );
}
