import { Migration } from '@mikro-orm/migrations';

/**
 * Site facts compared as site facts (issue 62): a check defined with `siteFact` (compression, caching headers, http,
 * insecure cookies) is one fact of the site, so the comparison gives it one row per code (PERSISTING while either
 * audit's pages still show it, whatever URLs carry it; FIXED only when the later audit found it nowhere), no longer
 * one row per URL (a page whose text shrank below the compression threshold was listed as fixed). The stored digests
 * were computed URL by URL: they are dropped, and each pair is computed again on its next read (completed audits keep
 * their rows, so nothing is lost).
 */
export class ComparisonSiteFacts20261128 extends Migration {
  override async up(): Promise<void> {
    this.addSql('delete from "comparison_digest";');
  }

  override async down(): Promise<void> {
    this.addSql('delete from "comparison_digest";');
  }
}
