/** Collects bound values and hands out their numbered placeholders (`?1`, `?2`, …) while SQL is assembled. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `?${this.values.length}`;
  }

  /** A list bound as one JSON parameter (D1 allows 100 bound values per statement). */
  list(values: readonly unknown[]): string {
    return `(SELECT value FROM json_each(${this.add(JSON.stringify(values))}))`;
  }
}
