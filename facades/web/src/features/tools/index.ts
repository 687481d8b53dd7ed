import { lazyRouteComponent } from '@tanstack/react-router';

export const ToolsIndexPage = lazyRouteComponent(() => import('./tools-index-page'), 'ToolsIndexPage');
export const MetaTagsToolPage = lazyRouteComponent(() => import('./meta-tags-page'), 'MetaTagsToolPage');
export const RobotsToolPage = lazyRouteComponent(() => import('./robots-page'), 'RobotsToolPage');
export const HeadersToolPage = lazyRouteComponent(() => import('./headers-page'), 'HeadersToolPage');
export const SitemapToolPage = lazyRouteComponent(() => import('./sitemap-page'), 'SitemapToolPage');
