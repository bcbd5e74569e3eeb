// Placeholder until this route lands (same change set).
export function InstallWizard() {
  return (
    <main className="page">
      <h1>InstallWizard</h1>
    </main>
  );
}
