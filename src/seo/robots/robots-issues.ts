import type { RobotsIssue } from './robots.types.js';

/** Keeps the first `limit` issues and counts the rest, so garbage input cannot grow the response. */
export class RobotsIssueList {
  private readonly items: RobotsIssue[] = [];
  private omitted = 0;
  private firstOmittedLine = 0;

  constructor(private readonly limit: number) {}

  add(line: number, message: string): void {
    if (this.items.length < this.limit) {
      this.items.push({ line, message });
      return;
    }
    if (this.omitted === 0) this.firstOmittedLine = line;
    this.omitted++;
  }

  /** For file-level findings (encoding, size) that must survive the cap. */
  addAlways(line: number, message: string): void {
    this.items.push({ line, message });
  }

  /** Issues in line order, plus one summary entry when some were left out. */
  finish(noun: string): RobotsIssue[] {
    const sorted = this.items.slice().sort((a, b) => a.line - b.line);
    if (this.omitted > 0) {
      sorted.push({ line: this.firstOmittedLine, message: `${this.omitted} more ${noun} not listed` });
    }
    return sorted;
  }
}
