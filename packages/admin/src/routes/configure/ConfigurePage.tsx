// Placeholder until this route lands (same change set).
export function ConfigurePage() {
  return (
    <main className="page">
      <h1>ConfigurePage</h1>
    </main>
  );
}
