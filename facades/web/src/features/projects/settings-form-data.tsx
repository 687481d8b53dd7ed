import {
  type ProjectSettingsInput,
  type CrawlListMode,
  type QueryParameterMode,
  type RenderingMode,
} from '../../gql/graphql';
import type { Settings } from './crawl-scope-section';
import { LABELS } from './crawl-scope-section';

/** One entry per line, blank lines left out. */
export const lines = (data: FormData, name: string) =>
  String(data.get(name) ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The API names each list URL by its index (`settings.startUrls.3`): the form shows those errors at the one field
 * that holds them all.
 */
export function scopeLabels(urlCount: number): Record<string, string> {
  const labels = { ...LABELS };
  for (let i = 0; i < Math.max(urlCount, 1); i++) labels[`settings.startUrls.${i}`] = LABELS['settings.startUrls'];
  return labels;
}

export function withListErrorsAtTheirField(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    const key = /^settings\.startUrls\.\d+$/.test(path) ? 'settings.startUrls' : path;
    if (!(key in out)) out[key] = message;
  }
  return out;
}

export const INT_FIELDS = ['maxPages', 'maxDepth', 'crawlDelayMs'] as const;
export const TEXT_FIELDS = ['userAgent', 'rankCountry', 'rankLanguage'] as const;

/**
 * The form's values as the API's input: an empty field clears the setting (the platform default applies);
 * numbers that are not whole are reported at their field before anything is sent.
 */
export function readSettings(
  data: FormData,
  current: Settings,
): { input: ProjectSettingsInput; errors: Record<string, string> } {
  const input: ProjectSettingsInput = {};
  const errors: Record<string, string> = {};
  for (const key of INT_FIELDS) {
    const raw = String(data.get(`settings.${key}`) ?? '').trim();
    if (!raw) input[key] = null;
    else if (/^-?\d+$/.test(raw)) input[key] = Number(raw);
    else errors[`settings.${key}`] = `${LABELS[`settings.${key}`]} must be a whole number`;
  }
  for (const key of TEXT_FIELDS) {
    const raw = String(data.get(`settings.${key}`) ?? '').trim();
    input[key] = raw || null;
  }
  const device = String(data.get('settings.rankDevice') ?? 'default');
  input.rankDevice = device === 'default' ? null : device;
  // A checkbox left as it was keeps an unset setting unset (the default may change with the platform).
  const robots = data.get('settings.respectRobots') === 'on';
  input.respectRobots = current.respectRobots === null && robots ? null : robots;
  const subdomains = data.get('settings.rankIncludeSubdomains') === 'on';
  input.rankIncludeSubdomains = current.rankIncludeSubdomains === null && !subdomains ? null : subdomains;
  // Crawl scope: an empty list or a default choice clears the setting.
  const include = lines(data, 'settings.includePatterns');
  const exclude = lines(data, 'settings.excludePatterns');
  const urls = lines(data, 'settings.startUrls');
  input.includePatterns = include.length ? include : null;
  input.excludePatterns = exclude.length ? exclude : null;
  input.startUrls = urls.length ? urls : null;
  const crawlSubdomains = data.get('settings.crawlSubdomains') === 'on';
  input.crawlSubdomains = current.crawlSubdomains === null && !crawlSubdomains ? null : crawlSubdomains;
  const listMode = String(data.get('settings.listMode') ?? 'OFF') as CrawlListMode;
  input.listMode = listMode === 'OFF' ? null : listMode;
  const query = String(data.get('settings.queryParameters') ?? 'KEEP') as QueryParameterMode;
  input.queryParameters = query === 'KEEP' ? null : query;
  const names = String(data.get('settings.droppedParameters') ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  input.droppedParameters = names.length ? names : null;
  const rendering = String(data.get('settings.renderingMode') ?? 'HTML') as RenderingMode;
  input.renderingMode = rendering === 'HTML' ? null : rendering;
  return { input, errors };
}
