import { OVERVIEW_OUTCOMES, OVERVIEW_PERIODS, type Mode, type OverviewPeriod, type OverviewResponse } from '@service/contract';
import { html, nothing, type PropertyValues } from 'lit';
import { api } from '../api.js';
import type { OverviewCharts } from '../charts.js';
import { errorText, LightElement } from '../light-element.js';
import { duration, reasonInWords, reasonLabel, when } from '../words.js';

const OUTCOME_LABELS = { approved: 'Approved', review: 'Review', rejected: 'Rejected', failed: 'Failed' } as const;
const PERIOD_KEY = 'dashboard-overview-days';

/** The per-day chart's key (for sighted readers; the table beside the chart has the same figures). */
const legend = () =>
  html`<ul class="legend" aria-hidden="true">
    ${OVERVIEW_OUTCOMES.map((o) => html`<li><span class=${`swatch ${o}`}></span>${OUTCOME_LABELS[o]}</li>`)}
  </ul>`;

const share = (part: number, total: number) => (total === 0 ? '-' : `${Math.round((part / total) * 1000) / 10} %`);
const dayName = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * The first page after sign-in: for the chosen period and the "Test data" switch's mode, the
 * outcomes per day, their shares, the most frequent reasons, time to verdict, the review backlog
 * and (for admins) webhook deliveries failing now. Each chart's figures are also a table for
 * screen readers; the chart library is loaded only here.
 */
export class OverviewPage extends LightElement {
  static override properties = {
    mode: {},
    days: { state: true },
    data: { state: true },
    error: { state: true },
  };
  declare mode: Mode;
  declare days: OverviewPeriod;
  declare data: OverviewResponse | null;
  declare error: string | null;
  private charts: OverviewCharts | null = null;
  private drawn: OverviewResponse | null = null;
  private request = 0;

  constructor() {
    super();
    this.mode = 'live';
    const saved = Number(sessionStorage.getItem(PERIOD_KEY));
    this.days = (OVERVIEW_PERIODS as readonly number[]).includes(saved) ? (saved as OverviewPeriod) : 7;
    this.data = null;
    this.error = null;
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('mode') || changed.has('days')) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.charts?.destroy();
    this.charts = null;
    this.drawn = null;
  }

  private async load() {
    const mine = ++this.request;
    try {
      const data = await api<OverviewResponse>('GET', `/overview?mode=${this.mode}&days=${this.days}`);
      if (mine !== this.request) return; // a newer period or mode was chosen meanwhile
      this.data = data;
      this.error = null;
    } catch (err) {
      if (mine === this.request) this.error = errorText(err);
    }
  }

  private choose(e: Event) {
    this.days = Number((e.target as HTMLInputElement).value) as OverviewPeriod;
    sessionStorage.setItem(PERIOD_KEY, String(this.days));
  }

  override updated(): void {
    const data = this.data;
    if (!data || data === this.drawn) return;
    this.drawn = data;
    void this.draw(data);
  }

  /** The chart library is fetched on the first draw only (a separate chunk). */
  private async draw(data: OverviewResponse): Promise<void> {
    const { drawOverviewCharts, themeColours } = await import('../charts.js');
    if (this.drawn !== data || !this.isConnected) return;
    this.charts?.destroy();
    const box = (name: string) => this.querySelector<HTMLElement>(`[data-chart="${name}"]`) ?? undefined;
    this.charts = drawOverviewCharts(
      { perDay: box('per-day'), shares: box('shares'), reasons: box('reasons') },
      data,
      themeColours(this),
      reasonLabel,
    );
    this.dataset.chartsDrawn = String(data.days);
  }

  private periodPicker() {
    return html`<fieldset class="segmented">
      <legend>Period</legend>
      ${OVERVIEW_PERIODS.map(
        (d) =>
          html`<label
            ><input type="radio" name="period" value=${d} .checked=${this.days === d} @change=${this.choose} /><span>${d} days</span></label
          >`,
      )}
    </fieldset>`;
  }

  private tiles(d: OverviewResponse) {
    const t = d.totals;
    const oldest = d.reviewBacklog.oldest;
    const f = d.failingDeliveries;
    return html`<div class="tiles">
      <wa-card>
        <h2>Verifications</h2>
        <p class="figure" data-testid="total">${t.total}</p>
        <p>
          ${
            t.total > 0
              ? `reached an outcome in the last ${d.days} days; ${t.approved} approved (${share(t.approved, t.total)})`
              : `none reached an outcome in the last ${d.days} days`
          }
        </p>
      </wa-card>
      <wa-card>
        <h2>Time to verdict</h2>
        <p class="figure" data-testid="median">${duration(d.timeToVerdict.medianSeconds)}</p>
        <p>
          ${
            d.timeToVerdict.count > 0
              ? `median from submit; 95th percentile ${duration(d.timeToVerdict.p95Seconds)} (${d.timeToVerdict.count} verdicts)`
              : 'no verdict in the period'
          }
        </p>
      </wa-card>
      <wa-card>
        <h2>Review backlog</h2>
        <p class="figure" data-testid="backlog">${d.reviewBacklog.count}</p>
        <p>
          ${
            oldest
              ? html`waiting now; the oldest since ${when(oldest.waitingSince)}:
                  <a class="mono" href=${`/dashboard/verifications/${oldest.verificationId}`}>${oldest.verificationId}</a>`
              : 'nothing waits for a reviewer'
          }
        </p>
      </wa-card>
      ${
        f
          ? html`<wa-card class=${f.retrying + f.failed > 0 ? 'alarm' : ''}>
              <h2>Webhook deliveries failing</h2>
              <p class="figure" data-testid="failing">${f.retrying + f.failed}</p>
              <p>
                ${f.retrying} retrying, ${f.failed} given up in the
                period${
                  f.lastFailureAt
                    ? html`; last failure ${when(f.lastFailureAt)}
                      (${f.lastStatusCode !== null ? `HTTP ${f.lastStatusCode}` : (f.lastError ?? 'no answer')})`
                    : nothing
                }.
                <a href="/dashboard/webhooks">Webhook deliveries</a>
              </p>
            </wa-card>`
          : nothing
      }
    </div>`;
  }

  private perDay(d: OverviewResponse) {
    return html`<figure class="chart wide">
      <figcaption><h2>Verifications per day by outcome</h2></figcaption>
      ${
        d.totals.total === 0
          ? html`<p>Nothing to draw: no verification reached an outcome in these ${d.days} days.</p>`
          : html`<div class="chart-box tall" data-chart="per-day" aria-hidden="true"></div>
              ${legend()}`
      }
      <div class="visually-hidden">
        <table>
          <caption>
            Verifications per day by outcome, last ${d.days} days (UTC)
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              ${OVERVIEW_OUTCOMES.map((o) => html`<th scope="col">${OUTCOME_LABELS[o]}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${d.perDay.map(
              (day) =>
                html`<tr>
                  <th scope="row">${dayName(day.date)}</th>
                  ${OVERVIEW_OUTCOMES.map((o) => html`<td>${day[o]}</td>`)}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </figure>`;
  }

  private shares(d: OverviewResponse) {
    const t = d.totals;
    return html`<figure class="chart">
      <figcaption><h2>Share of outcomes</h2></figcaption>
      ${
        t.total === 0
          ? html`<p>No verification reached an outcome in this period.</p>`
          : html`<div class="chart-box" data-chart="shares" aria-hidden="true"></div>`
      }
      <table class="data compact" aria-label="Share of outcomes">
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col">Verifications</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          ${OVERVIEW_OUTCOMES.map(
            (o) =>
              html`<tr>
                <th scope="row">${OUTCOME_LABELS[o]}</th>
                <td>${t[o]}</td>
                <td>${share(t[o], t.total)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </figure>`;
  }

  private reasons(d: OverviewResponse) {
    return html`<figure class="chart">
      <figcaption><h2>Most frequent reasons</h2></figcaption>
      ${
        d.topReasons.length === 0
          ? html`<p>No verdict gave a reason in this period.</p>`
          : html`<div class="chart-box" data-chart="reasons" aria-hidden="true"></div>
              <div class="visually-hidden">
                <table>
                  <caption>
                    Most frequent verdict reasons, last ${d.days} days
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Reason</th>
                      <th scope="col">Verifications</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${d.topReasons.map(
                      (r) =>
                        html`<tr>
                          <th scope="row" title=${reasonInWords(r.reason)}>${reasonLabel(r.reason)}</th>
                          <td>${r.count}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
      }
    </figure>`;
  }

  override render() {
    const d = this.data;
    return html`<header class="top">
        <h1>Overview</h1>
        ${this.periodPicker()}
      </header>
      ${this.error ? html`<wa-callout variant="danger" role="alert">${this.error}</wa-callout>` : nothing}
      ${
        d === null
          ? html`<wa-spinner aria-label="Loading"></wa-spinner>`
          : html`${this.tiles(d)} ${this.perDay(d)}
              <div class="grid-2">${this.shares(d)} ${this.reasons(d)}</div>`
      }`;
  }
}
customElements.define('overview-page', OverviewPage);
