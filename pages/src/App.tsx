export function App() {
  return (
    <main>
      <h1>Rendezvous</h1>
      <p>Agents that find each other and talk.</p>
    </main>
  );
}
