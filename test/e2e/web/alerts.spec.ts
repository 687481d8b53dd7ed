import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createProject, expect, expectAccessible, reviewShotsAtBothWidths, signUp, test } from './fixtures';
import { startWebFixtureSite, type FixtureSite } from './fixture-site';
import { waitForMail } from './mail-sink';

/**
 * A project's Alerts page against the platform as `npm start` runs it: a rule added through its dialog, a webhook
 * endpoint whose secret is shown once, a test event and a redelivery in the delivery log, the member's e-mail choice;
 * then a real audit whose overall score is below the previous one sends a signed webhook to a receiver on 127.0.0.1
 * and an e-mail whose unsubscribe link asks before it unsubscribes.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
}

let site: FixtureSite;
const received: Received[] = [];
const receiver = { secret: '', url: '', close: () => Promise.resolve() };

test.beforeAll(async () => {
  site = await startWebFixtureSite();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      // docs/alerts.md's check: X-Signature is t=<unix>,v1=<HMAC-SHA256 of "t.body">, at most 5 minutes old.
      const parts = Object.fromEntries(
        String(req.headers['x-signature'] ?? '')
          .split(',')
          .map((p) => p.split('=')),
      );
      const t = Number(parts.t);
      const mac = createHmac('sha256', receiver.secret).update(`${t}.${body}`).digest();
      const verified =
        Math.abs(Date.now() / 1000 - t) <= 300 &&
        /^[0-9a-f]{64}$/.test(parts.v1 ?? '') &&
        timingSafeEqual(mac, Buffer.from(parts.v1, 'hex'));
      received.push({ headers: req.headers, body, verified });
      res.writeHead(verified ? 200 : 401, { 'content-type': 'text/plain' }).end(verified ? 'received' : 'bad');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/seo-alerts`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
});
test.afterAll(async () => {
  await site?.close();
  await receiver.close();
});

/** A completed audit with perfect scores an hour ago: the audit the next one is compared with. */
async function perfectEarlierAudit(projectId: string): Promise<void> {
  const client = new pg.Client({
    connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/seo_audit_test',
  });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO audit (id, project_id, status, job_id, overall_score, meta_score, content_score, links_score,
         technical_score, performance_score, pages_crawled, max_pages, created_at, completed_at)
       VALUES ($1::uuid, $2, 'COMPLETED', $1::text, 100, 100, 100, 100, 100, 100, 5, 100,
         now() - interval '1 hour', now() - interval '1 hour')`,
      [randomUUID(), projectId],
    );
  } finally {
    await client.end();
  }
}

test('alerts: rules, a webhook with its secret once, the delivery log, e-mail, then a real score drop', async ({
  page,
  baseURL,
}) => {
  // Sign-up, deliveries through the alert worker and a whole audit: more than the default two minutes when busy.
  test.setTimeout(300_000);
  const { email } = await signUp(page);
  await createProject(page, `${site.origin}/`, 'Alert Garden');
  const projectId = new URL(page.url()).pathname.split('/').pop()!;
  const sections = page.getByRole('navigation', { name: 'Project sections' });
  await sections.getByRole('link', { name: 'Alerts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  await expect(page).toHaveTitle(/^Alerts · Alert Garden/);
  await expect(sections.getByRole('link', { name: 'Alerts' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'No alert rules yet' })).toBeVisible();
  await expectAccessible(page, 'the alerts page without rules');

  // A rule: the server's refusal is shown at its field, then a valid one is listed.
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add alert rule' });
  await expect(dialog.getByRole('button', { name: /Alert when/ })).toContainText('A score drops');
  await expect(
    dialog.getByText('Checked when an audit completes, against the previous completed audit.'),
  ).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: /E-mail/ })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: /Webhooks/ })).toBeChecked();
  await dialog.getByLabel('Points').fill('500');
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await expect(dialog.getByText('Points must be a whole number of points from 1 to 100')).toBeVisible();
  await expectAccessible(page, 'the add rule dialog with an error');
  await dialog.getByLabel('Points').fill('1');
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await expect(dialog).toHaveCount(0);
  const rules = page.getByRole('table', { name: 'Alert rules of the project' });
  await expect(rules.getByRole('rowheader', { name: 'Overall score drops by 1 point or more' })).toBeVisible();
  await expect(rules.getByRole('row').nth(1)).toContainText('E-mail, Webhooks');

  // Editing keeps the kind's parameter in its own field: the keyword kind asks for positions instead.
  await rules.getByRole('button', { name: 'Edit rule: Overall score drops by 1 point or more' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit alert rule' });
  await expect(edit.getByLabel('Points')).toHaveValue('1');
  await edit.getByRole('button', { name: /Alert when/ }).click();
  await page.getByRole('option', { name: 'A keyword drops' }).click();
  await expect(edit.getByLabel('Points')).toHaveCount(0);
  await expect(edit.getByLabel('Positions')).toBeVisible();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toHaveCount(0);

  // The member's e-mail: each alert as it happens.
  // The box a person clicks is the checkbox's label (react-aria keeps the input itself visually hidden).
  const immediate = page.getByRole('checkbox', { name: 'E-mail me each alert of this project as it happens' });
  await page.locator('label', { has: immediate }).click();
  await expect(immediate).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  // A webhook endpoint: its signing secret is shown once, in a dialog that must be closed on purpose.
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByLabel('Description').fill('Ops relay');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
  await expect(secretDialog.getByText('Copy the secret now')).toBeVisible();
  const secret = await secretDialog.getByLabel(`Signing secret for ${receiver.url}`).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  receiver.secret = secret;
  await expectAccessible(page, 'the signing secret dialog');
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toHaveCount(0);
  const endpoints = page.getByRole('table', { name: 'Webhook endpoints of the project' });
  await expect(endpoints.getByRole('rowheader')).toContainText(receiver.url);
  await expect(page.getByText(secret)).toHaveCount(0);

  // A test event, then its delivery in the log, and a redelivery.
  await endpoints.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
  expect(received[0].verified).toBe(true);
  expect(JSON.parse(received[0].body)).toMatchObject({ type: 'test', project: { id: projectId } });
  await endpoints.getByRole('button', { name: `Delivery log of ${receiver.url}` }).click();
  const log = page.getByRole('table', { name: /Delivery attempts to/ });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(log.getByRole('row')).toHaveCount(2, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(log.getByRole('row').nth(1)).toContainText('Delivered');
  await expect(log.getByRole('row').nth(1)).toContainText('HTTP 200');
  await expect(log.getByRole('row').nth(1)).toContainText('received');
  await expectAccessible(page, 'the alerts page with a delivery log');
  await log.getByRole('button', { name: /^Redeliver test attempt 1/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Redelivery queued' })).toBeVisible();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
  expect(received[1].headers['x-event-id']).toBe(received[0].headers['x-event-id']);
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(log.getByRole('row')).toHaveCount(3, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // A test event the endpoint refuses (its signature check fails there: 401): one attempt, then given up, with why.
  const signingSecret = receiver.secret;
  receiver.secret = 'not-the-secret';
  await endpoints.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(3);
  receiver.secret = signingSecret;
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(log.getByRole('row')).toHaveCount(4, { timeout: 1_000 });
    await expect(log.getByRole('row').nth(1)).toContainText('Abandoned', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(log.getByRole('row').nth(1)).toContainText(
    'Gave up after 1 attempt; the last: The endpoint answered HTTP 401',
  );
  await reviewShotsAtBothWidths(page, 'alerts');

  // A real audit that scores below the perfect one before it: one signed webhook and one e-mail.
  await perfectEarlierAudit(projectId);
  await sections.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('button', { name: 'Run audit' }).click();
  await expect(page.getByRole('heading', { name: 'Latest scores' })).toBeVisible({ timeout: 120_000 });
  await expect.poll(() => received.length, { timeout: 60_000 }).toBe(4);
  const alert = JSON.parse(received[3].body);
  expect(received[3].verified).toBe(true);
  expect(alert).toMatchObject({ type: 'alert.score_drop', alert: { details: { category: 'OVERALL', before: 100 } } });
  expect(alert.alert.title).toMatch(/^Overall score dropped \d+ points? \(100 → \d+\)$/);
  // The webhook can arrive before the e-mail: wait for the alert's own message, not the address's last one.
  const mail = await waitForMail(email, 60_000, (m) => m.subject.startsWith('[Alert Garden]'));
  expect(mail.subject).toBe(`[Alert Garden] ${alert.alert.title}`);
  expect(mail.html).toContain(alert.alert.url);

  // The unsubscribe link opens a page that asks first: opening it changed nothing.
  const link = /https?:\/\/\S+\/unsubscribe\?token=[A-Za-z0-9%_.-]+/.exec(mail.text)![0];
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe from alert e-mails' })).toBeVisible();
  await expectAccessible(page, 'the unsubscribe page');
  const preference = async () => {
    const res = await page.request.post('/graphql', {
      headers: { origin: baseURL!, 'content-type': 'application/json' },
      data: {
        query: 'query($p: ID!) { alertEmailPreference(projectId: $p) { immediate } }',
        variables: { p: projectId },
      },
    });
    return (await res.json()).data.alertEmailPreference.immediate as boolean;
  };
  expect(await preference()).toBe(true);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText('You are unsubscribed')).toBeVisible();
  await expect(page.getByText('Alert e-mails of 1 project were turned off.')).toBeVisible();
  expect(await preference()).toBe(false);
});
