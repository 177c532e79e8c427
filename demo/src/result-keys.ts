// Moving through the results by keyboard: ArrowDown from the search box goes to the first result,
// ArrowDown/ArrowUp between results, ArrowUp from the first back to the box; Enter opens one (a
// button's own behaviour).

export function wireResultKeys(query: HTMLInputElement, results: HTMLElement): void {
  const buttons = () => Array.from(results.querySelectorAll<HTMLButtonElement>('button.result'));
  query.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown') return;
    const first = buttons()[0];
    if (!first) return;
    event.preventDefault();
    first.focus();
  });
  results.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const all = buttons();
    const at = all.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    event.preventDefault();
    const next = at + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0) query.focus();
    else all[Math.min(next, all.length - 1)]!.focus();
  });
}
