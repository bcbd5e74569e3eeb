// Placeholder until this route lands (same change set).
export function LoginPage() {
  return (
    <main className="page">
      <h1>LoginPage</h1>
    </main>
  );
}
