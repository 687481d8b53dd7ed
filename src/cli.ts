#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { runCli } from './cli/index.js';

/**
 * The `seo` command's entry (package.json "bin" through bin/seo.js; dist/src/cli.js when built). The commands live
 * in src/cli/; what they need of the root of src/ is handed to them here.
 */
runCli({ entryFile: fileURLToPath(import.meta.url), entities: () => import('./entities.js') }, process.argv);
