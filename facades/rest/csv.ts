/** The CSV rule lives in src/platform/csv.ts (the exports of src/reports use it too); REST facades import it here. */
export { CSV_BOM, attachmentName, csvCell, csvRow } from '../../src/platform/csv.js';
