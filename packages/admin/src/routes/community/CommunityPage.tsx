// Placeholder until this route lands (same change set).
export function CommunityPage() {
  return (
    <main className="page">
      <h1>CommunityPage</h1>
    </main>
  );
}
