// Placeholder until this route lands (same change set).
export function DashboardPage() {
  return (
    <main className="page">
      <h1>DashboardPage</h1>
    </main>
  );
}
