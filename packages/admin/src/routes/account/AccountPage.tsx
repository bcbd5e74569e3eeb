// Placeholder until this route lands (same change set).
export function AccountPage() {
  return (
    <main className="page">
      <h1>AccountPage</h1>
    </main>
  );
}
